"""``quick_init``: a frozen, slotted dataclass built by the quicker ``__init__`` is the
object the generated one builds (issue #19, latency), and what it cannot do it refuses."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError, InitVar, dataclass, field, fields, replace
from datetime import UTC, datetime

import pytest
from engram.domain.ranking import ScoreParts, Signals
from engram.domain.values import quick_init
from engram.ports import DocKind, SearchHit


@dataclass(frozen=True, slots=True)
class Plain:
    a: int
    b: str = "b"
    c: list[int] = field(default_factory=list)
    d: float = field(default=0.5, kw_only=True)


@quick_init
@dataclass(frozen=True, slots=True)
class Quick:
    a: int
    b: str = "b"
    c: list[int] = field(default_factory=list)
    d: float = field(default=0.5, kw_only=True)


def _same(quick: Quick, plain: Plain) -> None:
    assert [getattr(quick, f.name) for f in fields(Quick)] == [getattr(plain, f.name) for f in fields(Plain)]


def test_built_quickly_it_is_what_the_generated_init_builds() -> None:
    _same(Quick(1), Plain(1))
    _same(Quick(1, "x", [2], d=0.1), Plain(1, "x", [2], d=0.1))
    _same(Quick(a=1, c=[3]), Plain(a=1, c=[3]))
    assert Quick(1).c is not Quick(1).c  # a fresh default from the factory each time
    assert Quick(1, "x") == Quick(1, "x")
    assert replace(Quick(1), b="y") == Quick(1, "y")
    assert pickle.loads(pickle.dumps(Quick(1, "x", [2]))) == Quick(1, "x", [2])


def test_it_stays_frozen_and_refuses_what_the_generated_init_refuses() -> None:
    q = Quick(1)
    with pytest.raises(FrozenInstanceError):
        q.a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick(1, "x", [], 0.1)  # type: ignore[misc]
    with pytest.raises(TypeError):
        Quick(1, e=2)  # type: ignore[call-arg]


def test_classes_it_cannot_build_the_same_are_refused() -> None:
    @dataclass(slots=True)
    class Mutable:
        a: int

    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True, slots=True)
    class Derived:
        a: int
        b: int = field(default=0, init=False)

    @dataclass(frozen=True, slots=True)
    class WithInitVar:
        a: int
        scale: InitVar[int] = 1

    for cls in (Mutable, Checked, Derived, WithInitVar):
        with pytest.raises(TypeError):
            quick_init(cls)


def test_the_hot_value_objects_are_built_quickly_with_every_field() -> None:
    now = datetime(2026, 1, 15, tzinfo=UTC)
    hit = SearchHit("m", DocKind.MESSAGE, keyword=1.5, semantic=0.2, occurred_at=now, speaker="Maya")
    assert (hit.id, hit.kind, hit.keyword, hit.semantic, hit.extra, hit.occurred_at, hit.speaker) == (
        "m",
        DocKind.MESSAGE,
        1.5,
        0.2,
        {},
        now,
        "Maya",
    )
    assert hit.importance is None and hit.confidence is None and hit.updated_at is None
    assert Signals(1.0, 0.5, 50, 1.0, now).speaker_match == 0.0
    parts = ScoreParts(*(0.1 * i for i in range(len(fields(ScoreParts)))))
    assert [getattr(parts, f.name) for f in fields(ScoreParts)] == [0.1 * i for i in range(len(fields(ScoreParts)))]
