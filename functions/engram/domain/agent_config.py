"""Per-agent configuration: EDDI's ``userMemoryConfig`` with its documented defaults.

Stored per (tenant, agent) and editable through ``/v1/agents/{agentId}/config``; an
agent with no stored configuration gets exactly these defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

from engram.domain.block_schema import MemoryBlocksConfig
from engram.domain.ttl import DEFAULT_TTL_HOURS

# A TTL longer than this is a typo, not a retention policy (about 100 years).
MAX_TTL_HOURS = 100 * 366 * 24.0


class _CamelModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True)


class RecallOrder(StrEnum):
    MOST_RECENT = "most_recent"
    MOST_ACCESSED = "most_accessed"


class OnCapReached(StrEnum):
    REJECT = "reject"
    EVICT_OLDEST = "evict_oldest"


DEFAULT_CATEGORIES: tuple[str, ...] = ("preference", "fact", "context")


class Guardrails(_CamelModel):
    max_key_length: int = Field(100, ge=1, le=1024)
    max_value_length: int = Field(1000, ge=1, le=100_000)
    max_writes_per_turn: int = Field(10, ge=1, le=1000)
    allowed_categories: tuple[str, ...] = DEFAULT_CATEGORIES


class DreamConfig(_CamelModel):
    """EDDI's dreamConfig plus the confidence lifecycle (Oasis) and merging knobs.

    ``enabled`` switches on EDDI's consolidation (stale pruning, contradictions, merging,
    summarisation). TTL expiry and the confidence lifecycle (decay, low-confidence
    pruning; design items 7 and 8) are the memory model itself and run for every agent
    unless ``decayConfidence`` is off.
    """

    enabled: bool = False
    prune_stale_after_days: int = Field(90, ge=0, le=36500, description="0 disables stale pruning.")
    detect_contradictions: bool = True
    summarize_interactions: bool = False
    max_cost_per_run: float = Field(0.50, ge=0, le=10_000, description="US dollars per agent per dream run.")
    merge_duplicates: bool = True
    decay_confidence: bool = True
    decay_after_days: int = Field(7, ge=1, le=3650)
    decay_factor: float = Field(0.95, gt=0, lt=1)
    prune_below_confidence: float = Field(0.3, ge=0, le=1)
    prune_low_confidence_after_days: int = Field(30, ge=0, le=36500)
    # Summarisation compresses a partition (same agent, visibility, groups, category)
    # once it holds this many entries; the sources are superseded by the summary.
    summarize_categories: tuple[str, ...] = ("fact", "context")
    summarize_min_entries: int = Field(20, ge=2, le=10_000)


class SemanticDedupConfig(_CamelModel):
    """Semantic reinforce/supersede on every write path (issue #17, item 6).

    A write under a key the user has no live entry for is compared with the user's
    entries it could reach: a restatement of one of them (the whole fact more similar
    than ``duplicateThreshold``) reinforces it; the same subject (the key as words at
    least as similar as ``supersedeThreshold``) with another value supersedes it. The
    thresholds are cosine similarities of the deployed embedder; left out, each takes the
    embedder's calibrated value (docs/user-control.md).
    """

    enabled: bool = True
    duplicate_threshold: float | None = Field(None, gt=0, le=1)
    supersede_threshold: float | None = Field(None, gt=0, le=1)


class UserMemoryConfig(_CamelModel):
    max_entries_per_user: int = Field(500, ge=1, le=1_000_000)
    max_recall_entries: int = Field(50, ge=1, le=10_000)
    recall_order: RecallOrder = RecallOrder.MOST_RECENT
    on_cap_reached: OnCapReached = OnCapReached.EVICT_OLDEST
    guardrails: Guardrails = Guardrails()
    dream_config: DreamConfig = DreamConfig()
    semantic_dedup: SemanticDedupConfig = SemanticDedupConfig()
    max_extraction_cost_per_day: float = Field(
        5.0,
        ge=0,
        le=1_000_000,
        description="US dollars per UTC day that model-based extraction (ENGRAM_EXTRACTOR=bedrock) may spend on "
        "this agent's messages; once reserved, its messages are extracted by the rules until the day ends. "
        "0: never call a model.",
    )
    # Hours each category lives after the fact was observed. A category not listed never
    # expires: a memory is kept until deleted unless its agent says otherwise.
    ttl_hours: dict[str, float] = Field(
        dict(DEFAULT_TTL_HOURS),
        description="Category -> hours to keep after the fact was observed; unlisted categories never expire.",
    )

    @field_validator("ttl_hours")
    @classmethod
    def _sane_ttls(cls, value: dict[str, float]) -> dict[str, float]:
        for category, hours in value.items():
            if not category.strip() or len(category) > 100:
                raise ValueError("ttlHours keys must be category names (1-100 characters)")
            if not 0 < hours <= MAX_TTL_HOURS:
                raise ValueError(f"ttlHours[{category!r}] must be more than 0 and at most {MAX_TTL_HOURS:g} hours")
        return value

    def ttl_table(self) -> Mapping[str, timedelta | None]:
        return {c: timedelta(hours=h) for c, h in self.ttl_hours.items()}


class AgentConfig(_CamelModel):
    """An agent's memory settings (the EDDI agent configuration, memory part)."""

    name: str | None = Field(None, max_length=200)
    enable_memory_tools: bool = True
    built_in_tools_whitelist: tuple[str, ...] = ("usermemory",)
    user_memory_config: UserMemoryConfig = UserMemoryConfig()
    # Categories whose writes become proposals for the user to approve; "*" for all,
    # "block:<name>" (or "block:*") for memory blocks.
    require_approval: tuple[str, ...] = ()
    # Undecided proposals expire after this long (a week by default).
    proposal_expiry_hours: int = Field(168, ge=1, le=24 * 365)
    memory_blocks: MemoryBlocksConfig = MemoryBlocksConfig()
