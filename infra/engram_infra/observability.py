"""Observability: the alarms an on-call engineer needs, an encrypted topic they publish to,
and one dashboard for the whole service."""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import Duration
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_opensearchservice as opensearch
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from engram_infra.config import EngramConfig
from engram_infra.functions import METRICS_NAMESPACE, SERVICE_NAME

PERIOD = Duration.minutes(5)
# Metrics the functions publish with Powertools (namespace Engram, dimension service=engram).
DREAM_METRICS = ("dream.users.processed", "dream.entries.pruned", "dream.contradictions.found")


class Observability(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: EngramConfig,
        key: kms.IKey,
        functions: Mapping[str, lambda_.Function],
        rest_api: apigw.RestApi,
        dead_letter_queues: Mapping[str, sqs.IQueue],
        work_queues: Mapping[str, sqs.IQueue],
        table: dynamodb.ITable,
        domain: opensearch.Domain,
    ) -> None:
        super().__init__(scope, construct_id)
        self.topic = sns.Topic(self, "AlarmTopic", display_name="Engram alarms", master_key=key, enforce_ssl=True)
        if config.alarm_email:
            self.topic.add_subscription(subscriptions.EmailSubscription(config.alarm_email))
        self.alarms: dict[str, cw.Alarm] = {}

        for name, function in functions.items():
            label = name.replace("_", " ")
            if name == "authorizer":
                # A rejected key is an invocation error by API Gateway's contract, so the
                # authorizer's Errors metric counts bad callers; its own faults are counted apart.
                self._alarm(
                    "AuthorizerFaults",
                    _engram_metric("AuthorizerFaults"),
                    1,
                    "The authorizer failed for a reason other than a bad key (e.g. the table is unreachable).",
                )
            else:
                self._alarm(
                    f"{_pascal(name)}Errors",
                    function.metric_errors(period=PERIOD, statistic="Sum"),
                    1,
                    f"The {label} function failed (uncaught error or timeout).",
                )
            self._alarm(
                f"{_pascal(name)}Throttles",
                function.metric_throttles(period=PERIOD, statistic="Sum"),
                1,
                f"The {label} function was throttled: account concurrency is exhausted.",
            )
        for name, queue in dead_letter_queues.items():
            self._alarm(
                f"{name}DeadLetters",
                queue.metric_approximate_number_of_messages_visible(period=PERIOD, statistic="Maximum"),
                1,
                f"Messages are waiting in the {name.lower()} dead-letter queue: inspect and redrive them.",
            )
        self._alarm(
            "IndexerIteratorAge",
            functions["indexer"].metric("IteratorAge", period=PERIOD, statistic="Maximum"),
            config.iterator_age_ms,
            "The search index lags the table: the indexer is falling behind or failing.",
        )
        self._alarm(
            "Api5xx",
            rest_api.metric_server_error(period=PERIOD, statistic="Sum"),
            config.api_5xx_threshold,
            "The API answers with server errors.",
        )
        self._alarm(
            "ApiLatencyP99",
            rest_api.metric_latency(period=PERIOD, statistic="p99"),
            config.api_p99_latency_ms,
            "The API's p99 latency is above target for 15 minutes.",
            evaluation_periods=3,
            comparison=cw.ComparisonOperator.GREATER_THAN_THRESHOLD,
        )
        self._alarm(
            "SearchClusterRed",
            domain.metric_cluster_status_red(period=Duration.minutes(1), statistic="Maximum"),
            1,
            "The search cluster is red: some primary shards are unassigned.",
        )
        self._alarm(
            "SearchWritesBlocked",
            domain.metric_cluster_index_writes_blocked(period=PERIOD, statistic="Maximum"),
            1,
            "The search cluster blocks writes (disk or memory pressure): the index stops following the table.",
        )
        self._alarm(
            "SearchFreeStorageLow",
            domain.metric_free_storage_space(period=PERIOD, statistic="Minimum"),
            config.search_volume_gb * 1024 * 0.25,  # MB: a quarter of one node's volume
            "A search node has less than 25% of its storage free.",
            comparison=cw.ComparisonOperator.LESS_THAN_OR_EQUAL_TO_THRESHOLD,
        )

        self.dashboard = self._dashboard(functions, rest_api, work_queues, dead_letter_queues, table, domain)

    def _alarm(
        self,
        construct_id: str,
        metric: cw.IMetric,
        threshold: float,
        description: str,
        *,
        evaluation_periods: int = 1,
        comparison: cw.ComparisonOperator = cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    ) -> cw.Alarm:
        alarm = cw.Alarm(
            self,
            construct_id,
            metric=metric,
            threshold=threshold,
            evaluation_periods=evaluation_periods,
            comparison_operator=comparison,
            # No data means nothing happened: no errors, no messages, no traffic.
            treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
            alarm_description=description,
        )
        alarm.add_alarm_action(cw_actions.SnsAction(self.topic))
        alarm.add_ok_action(cw_actions.SnsAction(self.topic))
        self.alarms[construct_id] = alarm
        return alarm

    def _dashboard(
        self,
        functions: Mapping[str, lambda_.Function],
        rest_api: apigw.RestApi,
        work_queues: Mapping[str, sqs.IQueue],
        dead_letter_queues: Mapping[str, sqs.IQueue],
        table: dynamodb.ITable,
        domain: opensearch.Domain,
    ) -> cw.Dashboard:
        def per_function(metric: str, statistic: str) -> list[cw.IMetric]:
            return [f.metric(metric, period=PERIOD, statistic=statistic, label=name) for name, f in functions.items()]

        dashboard = cw.Dashboard(self, "Dashboard", default_interval=Duration.hours(24))
        dashboard.add_widgets(
            cw.AlarmStatusWidget(title="Alarms", alarms=list(self.alarms.values()), width=24, height=4),
        )
        dashboard.add_widgets(
            cw.GraphWidget(
                title="API requests and errors",
                left=[
                    rest_api.metric_count(period=PERIOD, label="requests"),
                    rest_api.metric_client_error(period=PERIOD, label="4xx"),
                    rest_api.metric_server_error(period=PERIOD, label="5xx"),
                ],
                width=12,
            ),
            cw.GraphWidget(
                title="API latency (ms)",
                left=[
                    rest_api.metric_latency(period=PERIOD, statistic="p50", label="p50"),
                    rest_api.metric_latency(period=PERIOD, statistic="p99", label="p99"),
                    rest_api.metric_integration_latency(period=PERIOD, statistic="p99", label="integration p99"),
                ],
                width=12,
            ),
        )
        dashboard.add_widgets(
            cw.GraphWidget(title="Invocations", left=per_function("Invocations", "Sum"), width=8),
            cw.GraphWidget(
                title="Errors and throttles",
                left=per_function("Errors", "Sum"),
                right=per_function("Throttles", "Sum"),
                width=8,
            ),
            cw.GraphWidget(title="Duration p99 (ms)", left=per_function("Duration", "p99"), width=8),
        )
        dashboard.add_widgets(
            cw.GraphWidget(
                title="Indexer lag (iterator age, ms)",
                left=[functions["indexer"].metric("IteratorAge", period=PERIOD, statistic="Maximum")],
                width=8,
            ),
            cw.GraphWidget(
                title="Queue depth",
                left=[
                    q.metric_approximate_number_of_messages_visible(period=PERIOD, statistic="Maximum", label=name)
                    for name, q in work_queues.items()
                ],
                right=[
                    q.metric_approximate_number_of_messages_visible(
                        period=PERIOD, statistic="Maximum", label=f"{name} DLQ"
                    )
                    for name, q in dead_letter_queues.items()
                ],
                width=8,
            ),
            cw.GraphWidget(
                title="Dream runs",
                left=[_engram_metric(name) for name in DREAM_METRICS],
                right=[_engram_metric("dream.duration", statistic="p99")],
                width=8,
            ),
        )
        dashboard.add_widgets(
            cw.GraphWidget(
                title="Table capacity consumed",
                left=[
                    table.metric_consumed_read_capacity_units(period=PERIOD, label="RCU"),
                    table.metric_consumed_write_capacity_units(period=PERIOD, label="WCU"),
                ],
                right=[
                    table.metric("ReadThrottleEvents", period=PERIOD, statistic="Sum", label="read throttles"),
                    table.metric("WriteThrottleEvents", period=PERIOD, statistic="Sum", label="write throttles"),
                ],
                width=8,
            ),
            cw.GraphWidget(
                title="Search cluster",
                left=[
                    domain.metric_cpu_utilization(period=PERIOD, label="CPU %"),
                    domain.metric_jvm_memory_pressure(period=PERIOD, label="JVM memory pressure %"),
                ],
                right=[domain.metric_free_storage_space(period=PERIOD, label="free storage (MB)")],
                width=8,
            ),
            cw.GraphWidget(
                title="Search latency (ms)",
                left=[
                    domain.metric_search_latency(period=PERIOD, label="search"),
                    domain.metric_indexing_latency(period=PERIOD, label="indexing"),
                ],
                width=8,
            ),
        )
        return dashboard


def _engram_metric(name: str, statistic: str = "Sum") -> cw.Metric:
    return cw.Metric(
        namespace=METRICS_NAMESPACE,
        metric_name=name,
        dimensions_map={"service": SERVICE_NAME},
        period=PERIOD,
        statistic=statistic,
    )


def _pascal(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))
