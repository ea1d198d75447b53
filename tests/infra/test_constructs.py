"""The context settings, and the constructs whose shape depends on them, in small stacks."""

from __future__ import annotations

from typing import Any

import pytest
from aws_cdk import App, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk.assertions import Match, Template
from engram_infra.config import EngramConfig
from engram_infra.search import Search
from engram_infra.storage import Storage


def config_from(context: dict[str, Any]) -> EngramConfig:
    return EngramConfig.from_context(App(context=context).node)


def test_given_no_context_then_the_defaults_are_a_small_nightly_dev_deployment() -> None:
    config = config_from({})

    assert config.stage == "dev"
    assert config.is_production is False
    assert config.search_instance_type == "t3.medium.search"
    assert config.search_instance_count == 1
    assert config.dream_schedule == "cron(0 3 * * ? *)"
    assert config.max_body_bytes == 65_536


def test_given_command_line_strings_then_numbers_and_flags_are_coerced() -> None:
    config = config_from(
        {
            "searchInstanceCount": "3",
            "searchMasterCount": "3",
            "apiGatewayCloudWatchRole": "false",
            "logRetentionDays": "90",
        }
    )

    assert config.search_instance_count == 3
    assert config.search_master_count == 3
    assert config.api_gateway_cloud_watch_role is False
    assert config.log_retention_days == 90


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("maxBodyBytes", "100000"),  # WAF cannot see past 64 KB
        ("searchInstanceType", "large"),
        ("searchMasterCount", "2"),
        ("dreamSchedule", "every night"),
        ("logRetentionDays", "10"),
        ("bedrockEmbeddingDimension", "300"),
        ("throttleBurstLimit", "10"),  # below the default rate limit
    ],
)
def test_given_a_bad_context_value_then_synth_stops_naming_the_key(key: str, value: str) -> None:
    with pytest.raises(ValueError, match="Invalid Engram context") as caught:
        config_from({key: value})

    assert key in str(caught.value) or "throttleBurstLimit" in str(caught.value)


def test_given_the_prod_stage_then_the_table_and_key_are_retained_and_protected() -> None:
    stack = Stack(App(), "Prod")
    Storage(stack, "Storage", config=EngramConfig(stage="prod"))
    template = Template.from_stack(stack)

    template.has_resource(
        "AWS::DynamoDB::Table",
        {
            "DeletionPolicy": "Retain",
            "UpdateReplacePolicy": "Retain",
            "Properties": Match.object_like({"DeletionProtectionEnabled": True}),
        },
    )
    template.has_resource("AWS::KMS::Key", {"DeletionPolicy": "Retain"})


def test_given_three_data_nodes_and_masters_then_the_domain_spans_three_zones() -> None:
    stack = Stack(App(), "Big")
    key = kms.Key(stack, "Key")
    config = EngramConfig(
        search_instance_type="r7g.large.search",
        search_instance_count=3,
        search_master_count=3,
        search_volume_gb=100,
    )
    search = Search(stack, "Search", config=config, key=key)
    search.grant_query(iam.Role(stack, "Reader", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com")))
    template = Template.from_stack(stack)

    template.has_resource_properties(
        "AWS::OpenSearchService::Domain",
        {
            "ClusterConfig": Match.object_like(
                {
                    "InstanceType": "r7g.large.search",
                    "InstanceCount": 3,
                    "DedicatedMasterEnabled": True,
                    "DedicatedMasterCount": 3,
                    "ZoneAwarenessEnabled": True,
                    "ZoneAwarenessConfig": {"AvailabilityZoneCount": 3},
                }
            ),
            "EBSOptions": {"EBSEnabled": True, "VolumeSize": 100, "VolumeType": "gp3"},
        },
    )


def test_given_an_operator_role_then_it_joins_the_domain_access_policy() -> None:
    stack = Stack(App(), "Ops")
    operator = "arn:aws:iam::123456789012:role/search-operator"
    Search(stack, "Search", config=EngramConfig(search_operator_role_arn=operator), key=kms.Key(stack, "Key"))
    template = Template.from_stack(stack)

    template.has_resource_properties(
        "AWS::OpenSearchService::Domain",
        {
            "AccessPolicies": {
                "Statement": [Match.object_like({"Principal": {"AWS": operator}})],
                "Version": "2012-10-17",
            }
        },
    )


def test_given_a_domain_nobody_may_call_then_synth_fails_instead_of_the_deployment() -> None:
    app = App()
    stack = Stack(app, "Lonely")
    Search(stack, "Search", config=EngramConfig(), key=kms.Key(stack, "Key"))

    with pytest.raises(RuntimeError, match="No role may call the search domain"):
        app.synth()
