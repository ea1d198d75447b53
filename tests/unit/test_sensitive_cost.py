"""What keeps the filter cheap on long messages (docs/security.md, "Measured": CPU per
10,000 characters), checked by what it does rather than by a timing on a shared machine:
the learned stage looks up an n-gram's weights once, and the reading view tries a pattern
only where what the pattern needs is there. Both leave every score and label as they were."""

from __future__ import annotations

from typing import Any

import pytest
from engram.domain.sensitive import reading_view as reading_view_module
from engram.domain.sensitive.learned_model import ValueModel, model
from engram.domain.sensitive.reading_view import reading_view

_ORDINARY = "We walked the dog along the river at 7 and met Sam, who has 2 cats and a garden. " * 120


class _CountingWeights(dict[str, tuple[float, ...]]):
    calls = 0

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        type(self).calls += 1
        return super().get(key, default)


def test_a_text_scored_again_looks_up_no_n_gram_weights() -> None:
    real = model()
    counted = ValueModel(real.classes, real.bias, real.thresholds, real.window, _CountingWeights(real.weights))
    first = counted.scores(_ORDINARY)
    looked_up = _CountingWeights.calls
    assert counted.scores(_ORDINARY) == first == real.scores(_ORDINARY)
    # every (two before, one before, this) was looked up once: the second reading of the same
    # words (a repeated line, the same message redacted) asks the weights nothing
    assert _CountingWeights.calls == looked_up


class _Counting:
    def __init__(self, pattern: Any, tried: list[str]) -> None:
        self.pattern, self.tried = pattern, tried

    def sub(self, *args: Any) -> Any:
        self.tried.append(self.pattern.pattern)
        return self.pattern.sub(*args)


def test_the_reading_view_tries_no_pattern_whose_shape_is_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    tried: list[str] = []
    for name in ("_OCR_RUN", "_SPACED", "_BROKEN_LINE", "_SPACED_CAPITALS"):
        monkeypatch.setattr(reading_view_module, name, _Counting(getattr(reading_view_module, name), tried))
    assert reading_view(_ORDINARY) is None
    assert tried == []  # digits, but no run of two, no spaced group, no line break, no spelled capitals
    assert reading_view("card 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 and D E, 74 4036\n12") is not None
    assert len(tried) == 4
