"""Storage: the customer-managed key, the single DynamoDB table (the source of truth) and the
table of Powertools idempotency records.

The memory table's keys and indexes come from the DynamoDB adapter's own definition
(``engram.adapters.dynamodb.table``), so the code and the stack cannot drift apart:
local secondary indexes can only be created with the table, so a missed one would
mean a new table.
"""

from __future__ import annotations

from typing import Any

from aws_cdk import RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from constructs import Construct
from engram.adapters.dynamodb import keys
from engram.adapters.dynamodb.table import table_definition

from engram_infra.config import EngramConfig

# Where the adapter keeps API keys: the authorizer may read these items and no others.
API_KEY_PARTITION_PREFIX = keys.api_key_pk("")


class Storage(Construct):
    def __init__(self, scope: Construct, construct_id: str, *, config: EngramConfig) -> None:
        super().__init__(scope, construct_id)
        keep = RemovalPolicy.RETAIN if config.is_production else RemovalPolicy.DESTROY

        self.key = kms.Key(
            self,
            "Key",
            description="Engram: encrypts the tables, the stream, the queues, the search domain and the alarm topic",
            enable_key_rotation=True,
            removal_policy=keep,
        )
        # Alarms publish to the KMS-encrypted topic; CloudWatch must be able to use the key for that.
        self.key.add_to_resource_policy(
            iam.PolicyStatement(
                sid="AllowCloudWatchAlarmsToPublishToTheEncryptedTopic",
                principals=[iam.ServicePrincipal("cloudwatch.amazonaws.com")],
                actions=["kms:Decrypt", "kms:GenerateDataKey"],
                resources=["*"],  # in a key policy, "*" means this key
            )
        )

        definition = table_definition("engram")
        types = {a["AttributeName"]: a["AttributeType"] for a in definition["AttributeDefinitions"]}
        partition, sort = (_attribute(s, types) for s in definition["KeySchema"])
        self.table = dynamodb.Table(
            self,
            "Table",
            partition_key=partition,
            sort_key=sort,
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            encryption=dynamodb.TableEncryption.CUSTOMER_MANAGED,
            encryption_key=self.key,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            # The indexer needs both images: the new one to index, the old one to delete what left.
            stream=dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
            time_to_live_attribute=keys.TTL,
            deletion_protection=config.is_production,
            removal_policy=keep,
        )
        for index in definition.get("LocalSecondaryIndexes", []):
            self.table.add_local_secondary_index(
                index_name=index["IndexName"],
                sort_key=_attribute(index["KeySchema"][1], types),
                projection_type=dynamodb.ProjectionType[index["Projection"]["ProjectionType"]],
                non_key_attributes=index["Projection"].get("NonKeyAttributes"),
            )
        for index in definition.get("GlobalSecondaryIndexes", []):
            schema = index["KeySchema"]
            self.table.add_global_secondary_index(
                index_name=index["IndexName"],
                partition_key=_attribute(schema[0], types),
                sort_key=_attribute(schema[1], types) if len(schema) > 1 else None,
                projection_type=dynamodb.ProjectionType[index["Projection"]["ProjectionType"]],
                non_key_attributes=index["Projection"].get("NonKeyAttributes"),
            )

        # Powertools idempotency records (extraction jobs, Idempotency-Key writes): its
        # documented schema, a string key "id" and an "expiration" TTL.
        self.idempotency_table = dynamodb.Table(
            self,
            "IdempotencyTable",
            partition_key=dynamodb.Attribute(name="id", type=dynamodb.AttributeType.STRING),
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            encryption=dynamodb.TableEncryption.CUSTOMER_MANAGED,
            encryption_key=self.key,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            time_to_live_attribute="expiration",
            removal_policy=keep,
        )

    def grant_read_api_keys(self, grantee: iam.IGrantable) -> None:
        """GetItem on API key items only (their partition keys), and the key to decrypt them."""
        iam.Grant.add_to_principal(
            grantee=grantee,
            actions=["dynamodb:GetItem"],
            resource_arns=[self.table.table_arn],
            conditions={
                "ForAllValues:StringLike": {"dynamodb:LeadingKeys": [f"{API_KEY_PARTITION_PREFIX}*"]},
            },
        )
        self.key.grant_decrypt(grantee)


def _attribute(schema: dict[str, Any], types: dict[str, str]) -> dynamodb.Attribute:
    name = schema["AttributeName"]
    kind = {"S": dynamodb.AttributeType.STRING, "N": dynamodb.AttributeType.NUMBER, "B": dynamodb.AttributeType.BINARY}
    return dynamodb.Attribute(name=name, type=kind[types[name]])
