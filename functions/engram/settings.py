"""Runtime configuration: one pydantic settings model, validated at cold start.

Read from ``ENGRAM_*`` environment variables (and nothing else reads the environment).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AwareDatetime, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ENGRAM_", extra="ignore")

    backend: Literal["sqlite", "aws"] = "sqlite"
    data_dir: Path = Field(default_factory=lambda: Path.home() / ".engram")

    # AWS backend
    table_name: str = "engram"
    dynamodb_endpoint: str | None = None
    aws_region: str = "us-east-1"
    opensearch_url: str | None = None
    opensearch_index: str = "engram-memory"
    # SQS fan-out (set by the CDK stack): message ingest -> extraction; dream planner -> workers.
    extraction_queue_url: str | None = None
    dream_queue_url: str | None = None
    # The cloud re-index: its work queue, and the stream indexer's failure queue it replays.
    reindex_queue_url: str | None = None
    indexer_failures_queue_url: str | None = None
    # Dream: users per queue message, and the summariser: "extractive" (the default: the
    # facts themselves, chosen and deduplicated, offline and free), "bedrock" (an LLM
    # through Converse, with its prices, which the per-run cost cap is enforced with) or
    # "none". The CDK stack sets it explicitly (infra config ``dream_summarizer``).
    dream_batch_users: int = Field(100, ge=1, le=1000)
    dream_summarizer: Literal["none", "extractive", "bedrock"] = "extractive"
    bedrock_summary_model: str = "anthropic.claude-3-haiku-20240307-v1:0"
    summary_usd_per_million_input_tokens: float = Field(0.25, ge=0)
    summary_usd_per_million_output_tokens: float = Field(1.25, ge=0)

    # Embeddings: "minilm" (the default: all-MiniLM-L6-v2 offline, installed by the local
    # and semantic extras), "hash" (feature hashing, no model: tests, tiny installs),
    # "bedrock" (Titan on AWS). Search thresholds are tuned per embedder.
    embedder: Literal["hash", "minilm", "bedrock"] = "minilm"
    bedrock_embedding_model: str = "amazon.titan-embed-text-v2:0"
    bedrock_embedding_dimension: Literal[256, 512, 1024] = 512

    @field_validator("bedrock_embedding_dimension", mode="before")
    @classmethod
    def _dimension_from_env(cls, value: object) -> object:
        # Environment variables are strings, and a Literal of ints does not coerce "512".
        return int(value) if isinstance(value, str) and value.strip().isdigit() else value

    # Abuse controls (API Gateway enforces its own in the cloud).
    max_body_bytes: int = Field(262_144, ge=1024)
    requests_per_second_per_key: float = Field(200.0, gt=0)

    # Conversations (behaviour item 13) and extraction (item 14).
    conversation_window: int = Field(20, ge=1, le=1000)
    conversation_message_limit: int = Field(30, ge=2, le=10_000)
    conversation_summary_every: int = Field(10, ge=1, le=1000)
    # None: the embedder's tuned minimum of the one ranking (domain/ranking.py).
    message_search_min_score: float | None = Field(None, ge=0, le=1)
    extractor: Literal["rules", "bedrock"] = "rules"
    bedrock_extraction_model: str = "anthropic.claude-3-haiku-20240307-v1:0"
    extraction_usd_per_1k_input_tokens: float = Field(0.00025, ge=0)
    extraction_usd_per_1k_output_tokens: float = Field(0.00125, ge=0)
    # Locally: "background" runs extraction on a worker thread after each turn, as the
    # cloud does through SQS; "inline" finishes it before the append returns.
    extraction_worker: Literal["background", "inline"] = "background"
    # Powertools idempotency records of the extraction Lambda (DynamoDB, key "id").
    idempotency_table: str = "engram-idempotency"
    idempotency_record_seconds: int = Field(15 * 24 * 3600, ge=60)
    # Start the clock at this instant and let it run at real speed (demos, end-to-end
    # tests of TTLs); unset, the clock is the system's.
    clock_start: AwareDatetime | None = None

    @property
    def sqlite_path(self) -> Path:
        return self.data_dir / "engram.db"

    @property
    def index_path(self) -> Path:
        return self.data_dir / "index.db"
