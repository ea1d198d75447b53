"""``EngramMemory``: all of Engram as one construct, for ``EngramStack`` or any other stack.

It composes one construct per concern and then wires them, so every permission a
function holds is written down here, once, as a ``grant_*``:

    function       table              search  queues                 bedrock
    api, mcp       read/write (+idem.) write   send extraction (+dream: api) embed (+extract)
    authorizer     API key items only  -       -                      -
    indexer        stream read         write   send indexer failures  embed
    extraction     read/write (+idem.) write   consume extraction     embed (+extract)
    dream planner  read/write          -       send dream             -
    dream worker   read/write          query   consume + send dream   embed (+summarise)
    reindex        read + stream read  write   consume + send reindex embed
                                               consume indexer failures

(+idem.: the idempotency table; +extract / +summarise: only with extractor=bedrock or
dreamSummarizer=bedrock.)
"""

from __future__ import annotations

from pathlib import Path

from aws_cdk import Duration, Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_event_sources as sources
from constructs import Construct

from engram_infra.api import Api
from engram_infra.assets import CODE_DIR, LAYER_DIR
from engram_infra.config import EngramConfig
from engram_infra.functions import SPECS, Functions
from engram_infra.nag import acknowledge
from engram_infra.observability import Observability
from engram_infra.queues import Queues
from engram_infra.schedule import DreamSchedule
from engram_infra.search import Search
from engram_infra.storage import Storage


class EngramMemory(Construct):
    """Engram's storage, search, API, functions, queues, schedule, alarms and dashboard."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: EngramConfig | None = None,
        code_dir: Path = CODE_DIR,
        layer_dir: Path | None = None,
    ) -> None:
        super().__init__(scope, construct_id)
        config = config or EngramConfig.from_context(self.node)
        self.config = config
        if layer_dir is None:
            layer_dir = Path(config.layer_dir) if config.layer_dir else LAYER_DIR

        self.storage = Storage(self, "Storage", config=config)
        self.search = Search(self, "Search", config=config, key=self.storage.key)
        self.queues = Queues(
            self,
            "Queues",
            key=self.storage.key,
            extraction_timeout=SPECS["extraction"].timeout,
            dream_worker_timeout=SPECS["dream_worker"].timeout,
            reindex_timeout=SPECS["reindex"].timeout,
        )
        self.functions = Functions(
            self,
            "Functions",
            config=config,
            code_dir=code_dir,
            layer_dir=layer_dir,
            environment=self._environment(config),
        )
        self._wire(config)
        self.api = Api(
            self,
            "Api",
            config=config,
            api_function=self.functions["api"],
            mcp_function=self.functions["mcp"],
            authorizer_function=self.functions["authorizer"],
        )
        self.schedule = DreamSchedule(
            self,
            "DreamSchedule",
            config=config,
            planner=self.functions["dream_planner"],
            dead_letter_queue=self.queues.schedule_dlq,
        )
        self.observability = Observability(
            self,
            "Observability",
            config=config,
            key=self.storage.key,
            functions=self.functions.functions,
            rest_api=self.api.rest_api,
            dead_letter_queues=self.queues.dead_letter_queues,
            work_queues={"Extraction": self.queues.extraction, "Dream": self.queues.dream},
            table=self.storage.table,
            domain=self.search.domain,
        )

    @property
    def table(self) -> dynamodb.Table:
        """The memory table, for stacks that add their own consumers."""
        return self.storage.table

    def _environment(self, config: EngramConfig) -> dict[str, str]:
        """ENGRAM_* settings every function reads at cold start (engram/settings.py)."""
        return {
            "ENGRAM_BACKEND": "aws",
            "ENGRAM_AWS_REGION": Stack.of(self).region,
            "ENGRAM_TABLE_NAME": self.storage.table.table_name,
            "ENGRAM_OPENSEARCH_URL": self.search.endpoint_url,
            "ENGRAM_OPENSEARCH_INDEX": config.opensearch_index,
            "ENGRAM_EMBEDDER": config.embedder,
            "ENGRAM_BEDROCK_EMBEDDING_MODEL": config.bedrock_embedding_model,
            "ENGRAM_BEDROCK_EMBEDDING_DIMENSION": str(config.bedrock_embedding_dimension),
            "ENGRAM_MAX_BODY_BYTES": str(config.max_body_bytes),
            "ENGRAM_EXTRACTOR": config.extractor,
            "ENGRAM_BEDROCK_EXTRACTION_MODEL": config.bedrock_extraction_model,
            "ENGRAM_DREAM_SUMMARIZER": config.dream_summarizer,
            "ENGRAM_BEDROCK_SUMMARY_MODEL": config.bedrock_summary_model,
            "ENGRAM_IDEMPOTENCY_TABLE": self.storage.idempotency_table.table_name,
        }

    def _wire(self, config: EngramConfig) -> None:
        fns = self.functions
        table = self.storage.table
        search = self.search
        queues = self.queues

        # Request path.
        for name in ("api", "mcp"):
            table.grant_read_write_data(fns[name])
            search.grant_write(fns[name])  # recall queries; erasure deletes from the index
            queues.extraction.grant_send_messages(fns[name])
            fns[name].add_environment("ENGRAM_EXTRACTION_QUEUE_URL", queues.extraction.queue_url)
        # The authorizer looks one key record up by id, nothing more: it cannot read memories.
        self.storage.grant_read_api_keys(fns["authorizer"])
        # Idempotent extraction jobs and Idempotency-Key writes.
        for name in ("api", "mcp", "extraction"):
            self.storage.idempotency_table.grant_read_write_data(fns[name])

        # Table stream -> index. Bisecting isolates a poison record; partial batch responses
        # retry only what failed; a batch that still fails goes to the failure queue.
        fns["indexer"].add_event_source(
            sources.DynamoEventSource(
                table,
                starting_position=lambda_.StartingPosition.TRIM_HORIZON,
                batch_size=100,
                max_batching_window=Duration.seconds(1),
                bisect_batch_on_error=True,
                report_batch_item_failures=True,
                retry_attempts=10,
                max_record_age=Duration.days(1),
                on_failure=sources.SqsDlq(queues.indexer_failures),
            )
        )
        search.grant_write(fns["indexer"])

        # Message ingest -> extraction.
        fns["extraction"].add_event_source(
            sources.SqsEventSource(
                queues.extraction,
                batch_size=10,
                report_batch_item_failures=True,
                # A burst of ingest must not take the concurrency the api and authorizer need.
                max_concurrency=config.extraction_concurrency,
            )
        )
        table.grant_read_write_data(fns["extraction"])
        # Semantic dedup queries the index, and each processed message is indexed for search.
        search.grant_write(fns["extraction"])

        # Schedule -> planner -> SQS batches of users -> workers.
        # The planner writes the run's report and progress items, so it needs write too.
        table.grant_read_write_data(fns["dream_planner"])
        # Runs start on schedule (planner), by hand (api: POST /v1/dream/runs), and a worker
        # hands a user's remaining work back to the queue; all three send dream batches.
        for name in ("dream_planner", "api", "dream_worker"):
            queues.dream.grant_send_messages(fns[name])
            fns[name].add_environment("ENGRAM_DREAM_QUEUE_URL", queues.dream.queue_url)
        fns["dream_worker"].add_event_source(
            sources.SqsEventSource(
                queues.dream,
                batch_size=1,
                report_batch_item_failures=True,
                # Bounds the load a dream run puts on the table and the cluster.
                max_concurrency=config.dream_worker_concurrency,
            )
        )
        table.grant_read_write_data(fns["dream_worker"])
        search.grant_query(fns["dream_worker"])

        # The cloud re-index (engram reindex): scans the table, reads failed batches back
        # from the stream, writes the index; two workers at most, so a backfill never
        # crowds out the request path or the stream indexer.
        table.grant_read_data(fns["reindex"])
        table.grant_stream_read(fns["reindex"])
        search.grant_write(fns["reindex"])
        queues.reindex.grant_send_messages(fns["reindex"])
        queues.indexer_failures.grant_consume_messages(fns["reindex"])
        fns["reindex"].add_environment("ENGRAM_REINDEX_QUEUE_URL", queues.reindex.queue_url)
        fns["reindex"].add_environment("ENGRAM_INDEXER_FAILURES_QUEUE_URL", queues.indexer_failures.queue_url)
        fns["reindex"].add_event_source(
            sources.SqsEventSource(queues.reindex, batch_size=1, report_batch_item_failures=True, max_concurrency=2)
        )

        models: dict[str, list[str]] = {}
        if config.embedder == "bedrock":
            models[config.bedrock_embedding_model] = ["api", "mcp", "indexer", "extraction", "dream_worker", "reindex"]
        if config.extractor == "bedrock":
            # Extraction runs in its Lambda, and inline when a thread reaches its message limit.
            models.setdefault(config.bedrock_extraction_model, []).extend(["api", "mcp", "extraction"])
        if config.dream_summarizer == "bedrock":
            models.setdefault(config.bedrock_summary_model, []).append("dream_worker")
        for model, users in models.items():
            arn = Stack.of(self).format_arn(
                service="bedrock", account="", resource="foundation-model", resource_name=model
            )
            for name in dict.fromkeys(users):
                # InvokeModel also authorises Converse, which the extractor and summariser use.
                iam.Grant.add_to_principal(grantee=fns[name], actions=["bedrock:InvokeModel"], resource_arns=[arn])

        # The table's indexes hold the same items as the table, so grants name them too.
        table_id = Stack.of(self).get_logical_id(table.node.default_child)  # type: ignore[arg-type]
        for name in ("api", "mcp", "extraction", "dream_planner", "dream_worker", "reindex"):
            assert fns[name].role is not None
            acknowledge(
                fns[name].role,  # type: ignore[arg-type]
                f"IAM5[Resource::<{table_id}.Arn>/index/*]",
                "The table's secondary indexes (LSI1-3, GSI1) project the same Engram items the "
                "table grant covers; '/index/*' names them, nothing outside the table.",
            )

        # Every function but the authorizer encrypts with the key (table writes or queue sends).
        for name, function in fns.functions.items():
            if name == "authorizer":
                continue
            assert function.role is not None
            for family in ("kms:GenerateDataKey*", "kms:ReEncrypt*"):
                acknowledge(
                    function.role,
                    f"IAM5[Action::{family}]",
                    f"CDK's encrypt grant for the {name} function (table writes or queue sends) uses this "
                    "KMS action family; its only resource is the one Engram key.",
                )
