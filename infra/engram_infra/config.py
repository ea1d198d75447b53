"""Deployment settings, read from CDK context (``cdk.json`` or ``-c key=value``) and validated once.

Context given on the command line arrives as strings, so every number and flag is
coerced and checked here; a bad value stops the synth with a message naming the key.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from aws_cdk import aws_logs as logs
from constructs import Node
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic.alias_generators import to_camel

_SCHEDULE_RE = re.compile(r"^(cron\(.+\)|rate\(\d+ (minute|minutes|hour|hours|day|days)\))$")
_MODEL_RE = re.compile(r"^[a-z0-9-]+\.[A-Za-z0-9._:-]+$")
_INSTANCE_RE = re.compile(r"^[a-z0-9]+\.[a-z0-9]+\.search$")

# The retention periods CloudWatch Logs accepts, by their aws_logs.RetentionDays names.
RETENTION_NAMES = {
    1: "ONE_DAY",
    3: "THREE_DAYS",
    5: "FIVE_DAYS",
    7: "ONE_WEEK",
    14: "TWO_WEEKS",
    30: "ONE_MONTH",
    60: "TWO_MONTHS",
    90: "THREE_MONTHS",
    120: "FOUR_MONTHS",
    150: "FIVE_MONTHS",
    180: "SIX_MONTHS",
    365: "ONE_YEAR",
    400: "THIRTEEN_MONTHS",
    545: "EIGHTEEN_MONTHS",
    731: "TWO_YEARS",
    1096: "THREE_YEARS",
    1827: "FIVE_YEARS",
    2192: "SIX_YEARS",
    2557: "SEVEN_YEARS",
    2922: "EIGHT_YEARS",
    3288: "NINE_YEARS",
    3653: "TEN_YEARS",
}


class EngramConfig(BaseModel):
    """Every knob of an Engram deployment; the defaults are a small, cheap, safe development stack."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True, extra="forbid")

    # "prod" retains data on stack deletion and turns on deletion protection.
    stage: str = Field("dev", pattern=r"^[a-z][a-z0-9-]{0,15}$")

    # Search (Amazon OpenSearch Service).
    search_engine_version: str = Field("2.19", pattern=r"^\d+\.\d+$")
    search_instance_type: str = "t3.medium.search"
    search_instance_count: int = Field(1, ge=1, le=80)
    search_volume_gb: int = Field(20, ge=10, le=16384)
    search_master_instance_type: str = "m7g.large.search"
    search_master_count: int = 0  # 0, 3 or 5 dedicated master nodes
    opensearch_index: str = Field("engram-memory", pattern=r"^[a-z0-9][a-z0-9_-]{0,254}$")
    # An operator role that may also call the domain (to inspect the index); none by default.
    search_operator_role_arn: str | None = Field(None, pattern=r"^arn:aws[a-z-]*:iam::\d{12}:role/\S+$")

    # Embeddings (Bedrock Titan Text Embeddings v2 by default).
    embedder: Literal["hash", "bedrock"] = "bedrock"
    bedrock_embedding_model: str = "amazon.titan-embed-text-v2:0"
    bedrock_embedding_dimension: int = 512  # Titan v2 offers 256, 512 or 1024

    # Fact extraction ("rules" needs nothing; "bedrock" calls Converse) and the dream
    # summariser ("none", "extractive": the facts themselves, no model, or "bedrock");
    # models are Bedrock foundation-model ids.
    extractor: Literal["rules", "bedrock"] = "rules"
    bedrock_extraction_model: str = "anthropic.claude-3-haiku-20240307-v1:0"
    dream_summarizer: Literal["none", "extractive", "bedrock"] = "none"
    bedrock_summary_model: str = "anthropic.claude-3-haiku-20240307-v1:0"

    # API.
    throttle_rate_limit: int = Field(100, ge=1)
    throttle_burst_limit: int = Field(200, ge=1)
    authorizer_cache_seconds: int = Field(300, ge=0, le=3600)
    # WAF inspects at most 64 KB of a REST API body, so that is the largest limit it can enforce.
    max_body_bytes: int = Field(65_536, ge=1024, le=65_536)
    waf_ip_rate_limit: int = Field(3000, ge=100)  # requests per IP per 5 minutes
    api_gateway_cloud_watch_role: bool = True  # account-wide setting; turn off if already set

    # Schedule: nightly at 03:00 UTC.
    dream_schedule: str = "cron(0 3 * * ? *)"
    # The queue consumers' ceilings (SQS event source maximum concurrency): dream runs and
    # ingest bursts scale out only this far, so the api and authorizer keep the rest of
    # the account's concurrency (1,000 by default).
    dream_worker_concurrency: int = Field(10, ge=2, le=1000)
    extraction_concurrency: int = Field(10, ge=2, le=1000)

    # Observability.
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_retention_days: int = 30
    alarm_email: str | None = Field(None, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
    api_p99_latency_ms: int = Field(2000, ge=50)
    api_5xx_threshold: int = Field(5, ge=1)
    iterator_age_ms: int = Field(60_000, ge=1000)

    # Where the built dependency layer is (tests point this at a placeholder).
    layer_dir: str | None = None

    @field_validator("search_instance_type", "search_master_instance_type")
    @classmethod
    def _instance_type(cls, value: str) -> str:
        if not _INSTANCE_RE.match(value):
            raise ValueError("an OpenSearch instance type looks like 'r7g.large.search'")
        return value

    @field_validator("bedrock_embedding_model", "bedrock_extraction_model", "bedrock_summary_model")
    @classmethod
    def _foundation_model(cls, value: str) -> str:
        # Grants name foundation-model ARNs; a cross-region inference profile ("us.…") needs more.
        if not _MODEL_RE.match(value) or value.split(".", 1)[0] in ("us", "eu", "apac", "global"):
            raise ValueError("use a Bedrock foundation-model id such as 'amazon.titan-embed-text-v2:0'")
        return value

    @field_validator("search_master_count")
    @classmethod
    def _masters(cls, value: int) -> int:
        if value not in (0, 3, 5):
            raise ValueError("dedicated master nodes come in 0, 3 or 5")
        return value

    @field_validator("bedrock_embedding_dimension")
    @classmethod
    def _dimension(cls, value: int) -> int:
        if value not in (256, 512, 1024):
            raise ValueError("Titan Text Embeddings v2 offers 256, 512 or 1024 dimensions")
        return value

    @field_validator("dream_schedule")
    @classmethod
    def _schedule(cls, value: str) -> str:
        if not _SCHEDULE_RE.match(value):
            raise ValueError("an EventBridge schedule looks like 'cron(0 3 * * ? *)' or 'rate(1 day)'")
        return value

    @field_validator("log_retention_days")
    @classmethod
    def _retention(cls, value: int) -> int:
        if value not in RETENTION_NAMES:
            raise ValueError(f"CloudWatch Logs retention must be one of {tuple(RETENTION_NAMES)} days")
        return value

    @model_validator(mode="after")
    def _burst(self) -> EngramConfig:
        if self.throttle_burst_limit < self.throttle_rate_limit:
            raise ValueError("throttleBurstLimit must be at least throttleRateLimit")
        return self

    @property
    def is_production(self) -> bool:
        return self.stage == "prod"

    @property
    def log_retention(self) -> logs.RetentionDays:
        return logs.RetentionDays[RETENTION_NAMES[self.log_retention_days]]

    @classmethod
    def from_context(cls, node: Node) -> EngramConfig:
        """The settings from context; only keys this model knows are read (so unrelated context is fine)."""
        raw: dict[str, Any] = {}
        for name, field in cls.model_fields.items():
            key = field.alias or name
            value = node.try_get_context(key)
            if value is not None and value != "":
                raw[key] = value
        try:
            return cls.model_validate(raw)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
            raise ValueError(f"Invalid Engram context: {problems}") from None
