"""User profiles, user settings and agent configuration on the embedded store."""

from __future__ import annotations

import json
from typing import Any

from engram.adapters.sqlite.db import SqliteRepository, dumps
from engram.domain.agent_config import AgentConfig
from engram.domain.models import UserProfile, UserSettings
from engram.domain.serialization import profile_from_dict, profile_to_dict, settings_from_dict, settings_to_dict


class SqliteProfiles(SqliteRepository):
    def get_profile(self, tenant_id: str, user_id: str) -> UserProfile | None:
        body = self._get_body("profiles", tenant_id, user_id)
        return None if body is None else profile_from_dict(body)

    def put_profile(self, profile: UserProfile) -> None:
        self._put_body("profiles", profile.tenant_id, profile.user_id, profile_to_dict(profile))

    def get_settings(self, tenant_id: str, user_id: str) -> UserSettings | None:
        body = self._get_body("user_settings", tenant_id, user_id)
        return None if body is None else settings_from_dict(body)

    def put_settings(self, settings: UserSettings) -> None:
        self._put_body("user_settings", settings.tenant_id, settings.user_id, settings_to_dict(settings))

    def get_profile_and_settings(self, tenant_id: str, user_id: str) -> tuple[UserProfile | None, UserSettings | None]:
        return self.get_profile(tenant_id, user_id), self.get_settings(tenant_id, user_id)

    def _get_body(self, table: str, tenant_id: str, user_id: str) -> dict[str, Any] | None:
        row = (
            self.db.conn()
            .execute(f"SELECT body FROM {table} WHERE tenant_id=? AND user_id=?", (tenant_id, user_id))
            .fetchone()
        )
        return None if row is None else dict(json.loads(row[0]))

    def _put_body(self, table: str, tenant_id: str, user_id: str, body: dict[str, Any]) -> None:
        self.db.conn().execute(
            f"INSERT OR REPLACE INTO {table} (tenant_id, user_id, body) VALUES (?,?,?)",
            (tenant_id, user_id, dumps(body)),
        )


class SqliteAgentConfigs(SqliteRepository):
    def get_agent_config(self, tenant_id: str, agent_id: str) -> AgentConfig | None:
        row = (
            self.db.conn()
            .execute(
                "SELECT body FROM agent_configs WHERE tenant_id=? AND agent_id=?",
                (tenant_id, agent_id),
            )
            .fetchone()
        )
        return None if row is None else AgentConfig.model_validate_json(row[0])

    def put_agent_config(self, tenant_id: str, agent_id: str, config: AgentConfig) -> None:
        self.db.conn().execute(
            "INSERT OR REPLACE INTO agent_configs (tenant_id, agent_id, body) VALUES (?,?,?)",
            (tenant_id, agent_id, config.model_dump_json(by_alias=True)),
        )
