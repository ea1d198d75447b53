"""Rotation of core memory into archival memory (behaviour item 16), as pure functions.

A block rotates when its compact form passes a threshold of its character limit; the
lowest-value list items leave the block for archival memory until the block is back
under the strategy's target. Text and choice fields never rotate: they are the block's
current state (name, task), and a block whose text alone is over the limit is refused.

| strategy      | rotates at             | rotates down to   | what leaves first                      |
|---------------|------------------------|-------------------|----------------------------------------|
| aggressive    | 70%                    | 50%               | the oldest items, whatever their field |
| preservative  | 90%                    | 75%               | items of the lowest-priority fields    |
| adaptive      | 80%, moving in 60-95%  | threshold - 20pts | low priority, older first (a blend)    |

The adaptive threshold moves by 5 points after every ``ADAPT_WINDOW`` changes: up when
more than half of them rotated (rotating too often wastes the core), down when none did
(the block idles far from its limit and could stay leaner).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from engram.domain.block_format import compact_field, to_compact
from engram.domain.block_schema import BlockSchema, BlockValues, CompactLine, FieldKind, FieldValue, RotationStrategy
from engram.domain.errors import GuardrailViolation
from engram.domain.serialization import ts

THRESHOLDS = {
    RotationStrategy.AGGRESSIVE: 0.70,
    RotationStrategy.PRESERVATIVE: 0.90,
    RotationStrategy.ADAPTIVE: 0.80,
}
TARGET_GAP = {
    RotationStrategy.AGGRESSIVE: 0.20,
    RotationStrategy.PRESERVATIVE: 0.15,
    RotationStrategy.ADAPTIVE: 0.20,
}
ADAPTIVE_MIN, ADAPTIVE_MAX, ADAPTIVE_STEP = 0.60, 0.95, 0.05
ADAPT_WINDOW = 10


@dataclass(frozen=True, slots=True)
class RotatedItem:
    field: str
    value: str


@dataclass(frozen=True, slots=True)
class RotationPlan:
    values: dict[str, FieldValue]
    rotated: tuple[RotatedItem, ...]
    threshold: float
    size_before: int
    size_after: int

    @property
    def happened(self) -> bool:
        return bool(self.rotated)


def threshold_of(strategy: RotationStrategy, adaptive_threshold: float | None) -> float:
    if strategy is RotationStrategy.ADAPTIVE and adaptive_threshold is not None:
        return adaptive_threshold
    return THRESHOLDS[strategy]


def _order(strategy: RotationStrategy, schema: BlockSchema, values: BlockValues) -> list[tuple[float, float, str, int]]:
    """Every list item as (first key, second key, field, index): lowest sorts first."""
    keyed: list[tuple[float, float, str, int]] = []
    for f in schema.fields:
        items = values.get(f.name)
        if f.kind is not FieldKind.LIST or not isinstance(items, tuple):
            continue
        n = len(items)
        for i in range(n):
            age = n - i  # 1 for the newest item of its list
            if strategy is RotationStrategy.AGGRESSIVE:
                keyed.append((-age, f.priority, f.name, i))
            elif strategy is RotationStrategy.PRESERVATIVE:
                keyed.append((f.priority, -age, f.name, i))
            else:
                # Priority, lifted by up to 20 points for the newer items of a list.
                keyed.append((f.priority + 20.0 * (i + 1) / n, -age, f.name, i))
    keyed.sort()
    return keyed


def plan_rotation(
    schema: BlockSchema,
    values: BlockValues,
    strategy: RotationStrategy,
    adaptive_threshold: float | None = None,
) -> RotationPlan:
    """What leaves ``values`` for archival memory, and the block that stays.

    Raises ``block_too_large`` when even a fully rotated block is over its limit.
    """
    limit = schema.max_chars
    threshold = threshold_of(strategy, adaptive_threshold)
    size = len(to_compact(schema, values))
    if size <= threshold * limit:
        return RotationPlan(dict(values), (), threshold, size, size)
    target = (threshold - TARGET_GAP[strategy]) * limit
    removed: set[tuple[str, int]] = set()
    current = dict(values)
    now_size = size
    for _, _, name, index in _order(strategy, schema, values):
        if now_size <= target:
            break
        removed.add((name, index))
        current = _without(schema, values, removed)
        now_size = len(to_compact(schema, current))
    if now_size > limit:
        raise GuardrailViolation(
            "block_too_large",
            f"Block '{schema.name}' needs {now_size} characters even after rotating every list item; "
            f"its limit is {limit}. Shorten its text fields.",
            block=schema.name,
            maxChars=limit,
            chars=now_size,
        )
    rotated = tuple(
        RotatedItem(name, str(values[name][index])) for name, index in sorted(removed, key=lambda p: (p[0], p[1]))
    )
    return RotationPlan(current, rotated, threshold, size, now_size)


def _without(schema: BlockSchema, values: BlockValues, removed: set[tuple[str, int]]) -> dict[str, FieldValue]:
    out: dict[str, FieldValue] = {}
    for name, value in values.items():
        if isinstance(value, tuple):
            kept = tuple(v for i, v in enumerate(value) if (name, i) not in removed)
            if kept:
                out[name] = kept
        else:
            out[name] = value
    return out


def adapt(threshold: float | None, recent: Sequence[bool], rotated: bool) -> tuple[float, tuple[bool, ...]]:
    """The adaptive threshold and rotation window after one more change."""
    t = THRESHOLDS[RotationStrategy.ADAPTIVE] if threshold is None else threshold
    window = (*recent, rotated)[-ADAPT_WINDOW:]
    if len(window) < ADAPT_WINDOW:
        return t, window
    share = sum(window) / len(window)
    if share > 0.5:
        return round(min(ADAPTIVE_MAX, t + ADAPTIVE_STEP), 2), ()
    if share == 0:
        return round(max(ADAPTIVE_MIN, t - ADAPTIVE_STEP), 2), ()
    return t, window


# -- archival texts (the YouLab formats) ---------------------------------------------------


def archive_text(schema: BlockSchema, items: Sequence[RotatedItem], at: datetime, context: BlockValues) -> str:
    """``[ARCHIVED time]`` then the rotated items under their compact tags, with the
    block's identity and task lines for context, so a search hit reads on its own."""
    lines = [f"[ARCHIVED {ts(at)}] {schema.name}"]
    by_field: dict[str, list[str]] = {}
    for item in items:
        by_field.setdefault(item.field, []).append(item.value)
    for line in schema.layout():
        parts = _archived_parts(schema, line, by_field, context)
        if parts:
            lines.append(f"[{line.tag}] " + line.separator.join(parts))
    return "\n".join(lines)


def _archived_parts(
    schema: BlockSchema, line: CompactLine, by_field: Mapping[str, list[str]], context: BlockValues
) -> list[str]:
    """A compact line's rotated items; a line with none shows the block's text fields
    for context (its lists would only repeat what stayed in the block)."""
    here = [n for n in line.fields if n in by_field]
    if here:
        return [compact_field(schema, n, tuple(by_field[n])) for n in here]
    return [
        compact_field(schema, n, context[n]) for n in line.fields if n in context and not isinstance(context[n], tuple)
    ]


def task_text(task: str, notes: Sequence[str], at: datetime, extra: str | None = None) -> str:
    lines = [f"[TASK COMPLETED {ts(at)}]", f"Task: {task}"]
    if notes:
        lines.append("Context:")
        lines.extend(f"- {n}" for n in notes)
    if extra:
        lines.append(f"Notes: {extra}")
    return "\n".join(lines)
