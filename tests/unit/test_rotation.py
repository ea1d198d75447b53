"""Rotation of core memory blocks into archival memory (pure planning)."""

from __future__ import annotations

import pytest
from engram.domain.block_format import to_compact
from engram.domain.block_schema import HUMAN_SCHEMA, RotationStrategy
from engram.domain.blocks import canonical
from engram.domain.errors import GuardrailViolation
from engram.domain.rotation import (
    ADAPT_WINDOW,
    ADAPTIVE_MAX,
    ADAPTIVE_MIN,
    RotatedItem,
    adapt,
    archive_text,
    plan_rotation,
    task_text,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import T0

SMALL = HUMAN_SCHEMA.model_copy(update={"max_chars": 400})


def _block(n_facts: int = 3, n_prefs: int = 4, n_notes: int = 3, width: int = 30) -> dict:
    return canonical(
        HUMAN_SCHEMA,
        {
            "name": "Alice",
            "current_task": "Write the essay",
            "facts": [f"fact {i} " + "f" * width for i in range(n_facts)],
            "preferences": [f"pref {i} " + "p" * width for i in range(n_prefs)],
            "context_notes": [f"note {i} " + "n" * width for i in range(n_notes)],
        },
    )


@pytest.mark.parametrize(
    ("strategy", "threshold"),
    [(RotationStrategy.AGGRESSIVE, 0.70), (RotationStrategy.PRESERVATIVE, 0.90), (RotationStrategy.ADAPTIVE, 0.80)],
)
def test_given_each_strategy_when_usage_crosses_its_threshold_then_and_only_then_it_rotates(
    strategy: RotationStrategy, threshold: float
) -> None:
    values = _block()
    size = len(to_compact(SMALL, values))
    just_under = SMALL.model_copy(update={"max_chars": int(size / threshold) + 1})
    just_over = SMALL.model_copy(update={"max_chars": int(size / threshold) - 1})
    assert not plan_rotation(just_under, values, strategy).happened
    plan = plan_rotation(just_over, values, strategy)
    assert plan.happened and plan.threshold == threshold
    assert plan.size_after <= (threshold - 0.15) * just_over.max_chars


def test_given_aggressive_rotation_when_it_rotates_then_the_oldest_items_leave_first() -> None:
    plan = plan_rotation(SMALL, _block(), RotationStrategy.AGGRESSIVE)
    gone = {(r.field, r.value.split()[1]) for r in plan.rotated}
    # The oldest item of every list goes before any list's second-oldest.
    assert {("facts", "0"), ("preferences", "0"), ("context_notes", "0")} <= gone


def test_given_preservative_rotation_when_it_rotates_then_low_priority_fields_leave_first() -> None:
    plan = plan_rotation(SMALL.model_copy(update={"max_chars": 330}), _block(), RotationStrategy.PRESERVATIVE)
    fields = [r.field for r in plan.rotated]
    assert fields and set(fields) <= {"context_notes", "preferences"}
    assert "facts" in plan.values and len(plan.values["facts"]) == 3


def test_given_only_text_over_the_limit_when_planned_then_the_block_is_refused() -> None:
    values = canonical(HUMAN_SCHEMA, {"current_task": "t" * 450})
    with pytest.raises(GuardrailViolation) as err:
        plan_rotation(SMALL, values, RotationStrategy.ADAPTIVE)
    assert err.value.code == "block_too_large"


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 6),
    st.integers(0, 6),
    st.integers(0, 6),
    st.integers(1, 80),
    st.sampled_from(list(RotationStrategy)),
    st.integers(150, 900),
)
def test_given_any_block_when_rotated_then_it_fits_its_limit_and_every_item_is_kept_or_rotated(
    facts: int, prefs: int, notes: int, width: int, strategy: RotationStrategy, limit: int
) -> None:
    schema = HUMAN_SCHEMA.model_copy(update={"max_chars": limit})
    values = _block(facts, prefs, notes, width)
    plan = plan_rotation(schema, values, strategy)
    assert len(to_compact(schema, plan.values)) <= limit
    for name in ("facts", "preferences", "context_notes"):
        before = list(values.get(name, ()))
        kept = list(plan.values.get(name, ()))
        rotated = [r.value for r in plan.rotated if r.field == name]
        assert sorted(kept + rotated) == sorted(before)
        assert kept == [v for v in before if v in kept]  # order survives


def test_given_adaptive_rotation_when_it_rotates_too_often_or_never_then_the_threshold_moves_within_bounds() -> None:
    t, window = 0.8, ()
    for _ in range(ADAPT_WINDOW):
        t, window = adapt(t, window, rotated=True)
    assert t == 0.85 and window == ()
    for _ in range(ADAPT_WINDOW * 10):
        t, window = adapt(t, window, rotated=True)
    assert t == ADAPTIVE_MAX
    for _ in range(ADAPT_WINDOW * 20):
        t, window = adapt(t, window, rotated=False)
    assert t == ADAPTIVE_MIN
    mixed = (True, False) * (ADAPT_WINDOW // 2)
    assert adapt(0.8, mixed[:-1], rotated=False) == (0.8, mixed)


def test_given_rotated_items_when_archived_then_the_text_keeps_tags_and_block_context() -> None:
    values = _block()
    text = archive_text(HUMAN_SCHEMA, [RotatedItem("facts", "A"), RotatedItem("facts", "B")], T0, values)
    assert text.splitlines() == [
        "[ARCHIVED 2026-01-15T10:30:00.000000Z] human",
        "[USER] Alice",
        "[TASK] Write the essay",
        "[STATE] idle",
        "[FACTS] A; B",
    ]
    assert task_text("Essay", ["one", "two"], T0, "done") == (
        "[TASK COMPLETED 2026-01-15T10:30:00.000000Z]\nTask: Essay\nContext:\n- one\n- two\nNotes: done"
    )
