"""What keeps the filter cheap on long messages (docs/security.md, "Measured": CPU per
10,000 characters), checked by what it does rather than by a timing on a shared machine:
the learned stage looks up an n-gram's weights once, the reading view tries a pattern only
where what the pattern needs is there, and redaction asks the filter nothing it already
knows. All leave every score, label and redacted text as they were."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest
from engram.domain import conversation as conversation_module
from engram.domain.conversation import redact_sensitive
from engram.domain.sensitive import filter as filter_module
from engram.domain.sensitive import find_sensitive, secret_formats
from engram.domain.sensitive import reading_view as reading_view_module
from engram.domain.sensitive import redaction as redaction_module
from engram.domain.sensitive.categories import REDACTED
from engram.domain.sensitive.filter import find_by_rules
from engram.domain.sensitive.learned_model import ValueModel, model
from engram.domain.sensitive.reading_view import reading_view
from engram.domain.sensitive.redaction import flagged_span
from engram.domain.sensitive.secret_formats import public_or_sealed

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


class _CountingFilter:
    """``find_sensitive`` as redaction calls it, counted."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, text: str, key: str = "") -> Any:
        self.calls += 1
        return find_sensitive(text, key)


def _counted(monkeypatch: pytest.MonkeyPatch) -> _CountingFilter:
    counting = _CountingFilter()
    monkeypatch.setattr(conversation_module, "find_sensitive", counting)
    monkeypatch.setattr(redaction_module, "find_sensitive", counting)
    return counting


def test_a_message_of_one_clause_is_asked_of_the_filter_once_per_what_it_learns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counting = _counted(monkeypatch)
    text = "the wifi password is violet-Sunshine42 and the dog is Rex"
    assert redact_sensitive(text) == (f"the wifi password is {REDACTED} and the dog is Rex", ("secret",))
    # the message's verdict is its sentence's and its clause's (8 runs before: the same text
    # was asked three times, and what was left twice)
    assert counting.calls <= 5


def test_a_long_clause_is_scanned_in_windows_only_while_it_is_flagged(monkeypatch: pytest.MonkeyPatch) -> None:
    counting = _counted(monkeypatch)
    text = "ordinary words about the garden " * 400 + "my password is Kiwi!Fruit7 " + "and more words " * 50
    cleaned, rules = redact_sensitive(text)
    assert cleaned == text.replace("Kiwi!Fruit7", REDACTED) and rules == ("secret",)
    # what is left is asked whole, once: its 90 windows are read only when it is flagged
    # (186 runs before)
    assert counting.calls <= 10


def test_a_text_the_filter_passes_is_asked_once() -> None:
    asked: list[str] = []

    def flags(text: str) -> bool:
        asked.append(text)
        return find_sensitive(text) is not None

    assert flagged_span(_ORDINARY, flags) is None
    assert asked == [_ORDINARY]


def test_the_public_setting_pattern_is_tried_only_where_a_public_name_is(monkeypatch: pytest.MonkeyPatch) -> None:
    tried: list[str] = []
    monkeypatch.setattr(secret_formats, "_PUBLIC_SETTING_RE", _Counting(secret_formats._PUBLIC_SETTING_RE, tried))
    # "site" and "search" alone are everyday words: the pattern cost a millisecond a 10,000 characters
    assert public_or_sealed("the site was down and the search was slow " * 50).startswith("the site")
    assert tried == []
    for text in (
        "NEXT_PUBLIC_SUPABASE_ANON_KEY=eyJhbGciOiJIUzI1NiJ9abcdefghijk",
        "recaptcha_site_key=6LcR8xAqAAAAAKx3bP9eQ2mZ1vN7",
        "algolia search-only api key 4f8a9c2e1b7d6f3a0e5c",
        # the pattern's case folding reads "ſ" as "s", lower() does not: still masked
        "ſite_key=4f8a9c2e1b7d6f3a0e5c9a8b search",
    ):
        assert "publickey" in public_or_sealed(text), text
    assert len(tried) == 4


class _Searched:
    def __init__(self, pattern: Any, spans: list[int]) -> None:
        self.pattern, self.spans = pattern, spans

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self.spans.append(min(endpos, len(text)) - pos)
        return self.pattern.search(text, pos, endpos)


def test_a_record_s_value_field_is_looked_for_only_before_its_mark(monkeypatch: pytest.MonkeyPatch) -> None:
    spans: list[int] = []
    monkeypatch.setattr(filter_module, "_VALUE_FIELD", _Searched(filter_module._VALUE_FIELD, spans))
    text = _ORDINARY + "note: the value: 12 and the time 10:30"
    assert find_by_rules(text) is None
    # the pattern has no word to start from ("v" is one of its words): it read every
    # character of a message; now the few before each ":" or "="
    assert spans and max(spans) <= 12


def test_the_value_field_is_found_where_the_pattern_finds_it() -> None:
    rng = random.Random(18)
    pieces = [*"vVaAlLuUeEwWrRtToOdD \t\n:=\"'x1", "value", "VAL", "wert", "valeur", "waarde", "\u00a0"]
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 25)))
        assert filter_module._has_value_field(text) == (filter_module._VALUE_FIELD.search(text) is not None), text
