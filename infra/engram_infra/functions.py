"""Functions: every Lambda ships the same code asset and dependency layer; only the handler,
the sizing and the permissions differ.

Each function gets its own role (no managed policies) and its own log group with a
retention, and the role may write to that log group only. Permissions beyond that are
granted by ``EngramMemory``, one ``grant_*`` per need.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from engram_infra.assets import CODE_DIR, CODE_EXCLUDES, CORE_LAYER, LAYER_DIR, MCP_LAYER
from engram_infra.config import EngramConfig
from engram_infra.nag import acknowledge

RUNTIME = lambda_.Runtime.PYTHON_3_12
ARCHITECTURE = lambda_.Architecture.ARM_64
SERVICE_NAME = "engram"
METRICS_NAMESPACE = "Engram"


@dataclass(frozen=True)
class FunctionSpec:
    handler: str
    description: str
    memory_mb: int
    timeout: Duration


# The entry points inside functions/engram/handlers/. The request path gets 29 s, API
# Gateway's integration limit; the queue consumers' timeouts size their queues.
SPECS: dict[str, FunctionSpec] = {
    "api": FunctionSpec("engram.handlers.api.handler", "Engram REST API", 1024, Duration.seconds(29)),
    "authorizer": FunctionSpec(
        "engram.handlers.authorizer.handler", "Engram API key authorizer", 512, Duration.seconds(10)
    ),
    "mcp": FunctionSpec("engram.handlers.mcp.handler", "Engram MCP server", 1024, Duration.seconds(29)),
    "indexer": FunctionSpec(
        "engram.handlers.indexer.handler", "Engram table stream to search index", 1024, Duration.seconds(60)
    ),
    "extraction": FunctionSpec(
        "engram.handlers.extraction.handler", "Engram fact extraction from messages", 1024, Duration.seconds(120)
    ),
    "dream_planner": FunctionSpec(
        "engram.handlers.dream.planner_handler", "Engram dream run: fan users out", 512, Duration.minutes(5)
    ),
    "dream_worker": FunctionSpec(
        "engram.handlers.dream.worker_handler", "Engram dream run: consolidate a batch", 1024, Duration.minutes(5)
    ),
    "reindex": FunctionSpec(
        "engram.handlers.reindex.handler",
        "Engram search index backfill from the table, and replay of failed stream batches",
        1024,
        Duration.minutes(5),
    ),
}


class Functions(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: EngramConfig,
        environment: dict[str, str],
        code_dir: Path = CODE_DIR,
        layer_dir: Path = LAYER_DIR,
    ) -> None:
        super().__init__(scope, construct_id)
        for layer in (CORE_LAYER, MCP_LAYER):
            if not (layer_dir / layer / "python").is_dir():
                raise FileNotFoundError(
                    f"The {layer} dependency layer is not built in {layer_dir}: run `make layer` first "
                    "(or pass -c layerDir=<dir> holding core/python and mcp/python)."
                )
        keep = RemovalPolicy.RETAIN if config.is_production else RemovalPolicy.DESTROY
        self.code = lambda_.Code.from_asset(str(code_dir), exclude=list(CODE_EXCLUDES))
        self.layer = self._layer("Dependencies", layer_dir / CORE_LAYER, "every Engram function", keep)
        self.mcp_layer = self._layer("McpDependencies", layer_dir / MCP_LAYER, "the MCP function only", keep)
        base_env = {
            "POWERTOOLS_SERVICE_NAME": SERVICE_NAME,
            "POWERTOOLS_METRICS_NAMESPACE": METRICS_NAMESPACE,
            "LOG_LEVEL": config.log_level,
            **environment,
        }
        self.functions: dict[str, lambda_.Function] = {}
        self.log_groups: dict[str, logs.LogGroup] = {}
        for name, spec in SPECS.items():
            layers = [self.layer, self.mcp_layer] if name == "mcp" else [self.layer]
            self.functions[name] = self._function(name, spec, layers, base_env, config, keep)

    def __getitem__(self, name: str) -> lambda_.Function:
        return self.functions[name]

    def _layer(self, construct_id: str, path: Path, used_by: str, keep: RemovalPolicy) -> lambda_.LayerVersion:
        return lambda_.LayerVersion(
            self,
            construct_id,
            code=lambda_.Code.from_asset(str(path)),
            compatible_runtimes=[RUNTIME],
            compatible_architectures=[ARCHITECTURE],
            description=f"Engram runtime dependencies for {used_by} (pyproject.toml; layers/build.py)",
            removal_policy=keep,
        )

    def _function(
        self,
        name: str,
        spec: FunctionSpec,
        layers: Sequence[lambda_.ILayerVersion],
        env: dict[str, str],
        config: EngramConfig,
        keep: RemovalPolicy,
    ) -> lambda_.Function:
        construct_id = "".join(part.capitalize() for part in name.split("_"))
        log_group = logs.LogGroup(self, f"{construct_id}Logs", retention=config.log_retention, removal_policy=keep)
        role = iam.Role(
            self,
            f"{construct_id}Role",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=f"{spec.description}: least privilege, granted per need",
        )
        log_group.grant_write(role)
        function = lambda_.Function(
            self,
            construct_id,
            runtime=RUNTIME,
            architecture=ARCHITECTURE,
            code=self.code,
            handler=spec.handler,
            layers=list(layers),
            memory_size=spec.memory_mb,
            timeout=spec.timeout,
            tracing=lambda_.Tracing.ACTIVE,
            environment=dict(env),
            role=role,
            log_group=log_group,
            description=spec.description,
        )
        self.log_groups[name] = log_group
        acknowledge(
            role,
            "IAM5[Resource::*]",
            "X-Ray's PutTraceSegments and PutTelemetryRecords (and, for the stream reader, "
            "dynamodb:ListStreams) accept no resource ARN. Every data permission names its resource.",
        )
        acknowledge(
            function,
            "L1",
            "Pinned to python3.12 on purpose: the dependency layer is built for cp312 manylinux2014 "
            "aarch64 wheels, and both must move together.",
        )
        return function
