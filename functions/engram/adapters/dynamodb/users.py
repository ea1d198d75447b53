"""User profiles, user settings and agent configuration in the table."""

from __future__ import annotations

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import DynamoBase, from_item, key_of, to_item
from engram.adapters.dynamodb.items import ITEM_AGENT_CONFIG, ITEM_PROFILE, ITEM_SETTINGS
from engram.domain.agent_config import AgentConfig
from engram.domain.models import UserProfile, UserSettings
from engram.domain.serialization import profile_from_dict, profile_to_dict, settings_from_dict, settings_to_dict


class DynamoProfiles(DynamoBase):
    def get_profile(self, tenant_id: str, user_id: str) -> UserProfile | None:
        item = self.get(k.user_pk(tenant_id, user_id), k.PROFILE_SK)
        return None if item is None else profile_from_dict(from_item(item))

    def get_profile_and_settings(self, tenant_id: str, user_id: str) -> tuple[UserProfile | None, UserSettings | None]:
        pk = k.user_pk(tenant_id, user_id)
        found = {it[k.SK]["S"]: it for it in self.batch_get([key_of(pk, k.PROFILE_SK), key_of(pk, k.SETTINGS_SK)])}
        profile, settings = found.get(k.PROFILE_SK), found.get(k.SETTINGS_SK)
        return (
            None if profile is None else profile_from_dict(from_item(profile)),
            None if settings is None else settings_from_dict(from_item(settings)),
        )

    def put_profile(self, profile: UserProfile) -> None:
        pk = k.user_pk(profile.tenant_id, profile.user_id)
        self.put(to_item({**profile_to_dict(profile), k.PK: pk, k.SK: k.PROFILE_SK, k.ITEM_TYPE: ITEM_PROFILE}))

    def get_settings(self, tenant_id: str, user_id: str) -> UserSettings | None:
        item = self.get(k.user_pk(tenant_id, user_id), k.SETTINGS_SK)
        return None if item is None else settings_from_dict(from_item(item))

    def put_settings(self, settings: UserSettings) -> None:
        pk = k.user_pk(settings.tenant_id, settings.user_id)
        self.put(to_item({**settings_to_dict(settings), k.PK: pk, k.SK: k.SETTINGS_SK, k.ITEM_TYPE: ITEM_SETTINGS}))


class DynamoAgentConfigs(DynamoBase):
    def get_agent_config(self, tenant_id: str, agent_id: str) -> AgentConfig | None:
        item = self.get(k.tenant_pk(tenant_id), k.agent_config_sk(agent_id))
        return None if item is None else AgentConfig.model_validate_json(item["body"]["S"])

    def put_agent_config(self, tenant_id: str, agent_id: str, config: AgentConfig) -> None:
        self.put(
            to_item(
                {
                    k.PK: k.tenant_pk(tenant_id),
                    k.SK: k.agent_config_sk(agent_id),
                    k.ITEM_TYPE: ITEM_AGENT_CONFIG,
                    "tenantId": tenant_id,
                    "agentId": agent_id,
                    # pydantic owns this shape; a JSON string keeps it exact (no Decimals).
                    "body": config.model_dump_json(by_alias=True),
                }
            )
        )
