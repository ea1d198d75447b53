"""The Engram stack: the ``EngramMemory`` construct and the outputs an operator needs."""

from __future__ import annotations

from typing import Any

from aws_cdk import CfnOutput, Stack
from constructs import Construct

from engram_infra.config import EngramConfig
from engram_infra.memory import EngramMemory


class EngramStack(Stack):
    def __init__(self, scope: Construct, construct_id: str, **kwargs: Any) -> None:
        super().__init__(scope, construct_id, **kwargs)
        config = EngramConfig.from_context(self.node)
        self.memory = EngramMemory(self, "Engram", config=config)
        memory = self.memory

        outputs = {
            "ApiUrl": (memory.api.url, "Base URL of the REST API (append v1/..., health, docs or mcp)"),
            "TableName": (memory.storage.table.table_name, "DynamoDB table (source of truth)"),
            "SearchEndpoint": (memory.search.endpoint_url, "OpenSearch domain endpoint (IAM/SigV4 only)"),
            "ExtractionQueueUrl": (memory.queues.extraction.queue_url, "SQS queue feeding fact extraction"),
            "DreamQueueUrl": (memory.queues.dream.queue_url, "SQS queue feeding dream workers"),
            "ReindexFunctionName": (
                memory.functions["reindex"].function_name,
                "Search index backfill and failure replay: engram reindex --function <this>",
            ),
            "AlarmTopicArn": (memory.observability.topic.topic_arn, "SNS topic every alarm publishes to"),
            "DashboardName": (memory.observability.dashboard.dashboard_name, "CloudWatch dashboard"),
            "KeyArn": (memory.storage.key.key_arn, "Customer-managed KMS key encrypting the data"),
        }
        for name, (value, description) in outputs.items():
            CfnOutput(self, name, value=value, description=description)
