"""Relative times ("yesterday", "next week") resolved against a message's own timestamp.

Behaviour item 14: a fact extracted an hour or a week after it was said must mean the
same day it meant when the user said it, so the anchor is always the message's
timestamp (with the user's UTC offset), never the time of processing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a couple of": 2,
    "a few": 3,
}
_NUM = r"(?P<n>\d{1,3}|a couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten)"
_UNIT = r"(?P<unit>day|week|month|year)s?"

_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\bthe day before yesterday\b", re.I), "d-2"),
    (re.compile(r"\bthe day after tomorrow\b", re.I), "d+2"),
    (re.compile(r"\byesterday\b|\blast night\b", re.I), "d-1"),
    (re.compile(r"\btomorrow\b", re.I), "d+1"),
    (re.compile(r"\btoday\b|\btonight\b|\bthis (?:morning|afternoon|evening)\b", re.I), "d+0"),
    (re.compile(r"\b" + _NUM + r" " + _UNIT + r" ago\b", re.I), "ago"),
    (re.compile(r"\bin " + _NUM + r" " + _UNIT + r"\b", re.I), "in"),
    (re.compile(r"\blast (?P<unit>week|month|year)\b", re.I), "last"),
    (re.compile(r"\bnext (?P<unit>week|month|year)\b", re.I), "next"),
    (re.compile(r"\bthis (?P<unit>week|month|year)\b", re.I), "this"),
    (re.compile(r"\b(?P<dir>last|next|this|on) (?P<wd>" + "|".join(_WEEKDAYS) + r")\b", re.I), "weekday"),
]


@dataclass(frozen=True, slots=True)
class ResolvedTime:
    text: str  # the phrase as written
    start: date
    end: date  # inclusive; a week or a month resolves to its span
    precision: str  # day | week | month | year

    def label(self) -> str:
        if self.precision == "day":
            return self.start.isoformat()
        if self.precision == "month":
            return self.start.strftime("%Y-%m")
        if self.precision == "year":
            return str(self.start.year)
        return f"the week of {self.start.isoformat()}"


def _add_months(d: date, months: int) -> date:
    y, m = divmod(d.month - 1 + months, 12)
    return date(d.year + y, m + 1, 1)


def _span(anchor: date, unit: str, offset: int) -> tuple[date, date]:
    if unit == "week":
        monday = anchor - timedelta(days=anchor.weekday()) + timedelta(weeks=offset)
        return monday, monday + timedelta(days=6)
    if unit == "month":
        first = _add_months(anchor.replace(day=1), offset)
        return first, _add_months(first, 1) - timedelta(days=1)
    year = anchor.year + offset
    return date(year, 1, 1), date(year, 12, 31)


def _shift(anchor: date, unit: str, n: int) -> date:
    if unit == "day":
        return anchor + timedelta(days=n)
    if unit == "week":
        return anchor + timedelta(weeks=n)
    if unit == "month":
        first = _add_months(anchor.replace(day=1), n)
        last_day = (_add_months(first, 1) - timedelta(days=1)).day
        return first.replace(day=min(anchor.day, last_day))
    try:
        return anchor.replace(year=anchor.year + n)
    except ValueError:  # 29 February in a common year
        return anchor.replace(year=anchor.year + n, day=28)


_PAST = re.compile(r"\b(?:went|was|were|had|did|got|came|met|saw|left|lost|won|bought|\w{3,}ed)\b", re.I)


def _resolve(m: re.Match[str], kind: str, anchor: date, past: bool) -> ResolvedTime:
    text = m.group(0)
    if kind.startswith("d"):
        d = anchor + timedelta(days=int(kind[1:]))
        return ResolvedTime(text, d, d, "day")
    if kind in ("ago", "in"):
        n = _NUMBERS.get(m.group("n").lower()) or int(m.group("n"))
        unit = m.group("unit").lower()
        d = _shift(anchor, unit, -n if kind == "ago" else n)
        return ResolvedTime(text, d, d, "day")
    if kind in ("last", "next", "this"):
        unit = m.group("unit").lower()
        start, end = _span(anchor, unit, {"last": -1, "next": 1, "this": 0}[kind])
        return ResolvedTime(text, start, end, unit)
    wd = _WEEKDAYS.index(m.group("wd").lower())
    d = anchor + timedelta(days=_weekday_delta(wd - anchor.weekday(), m.group("dir").lower(), past))
    return ResolvedTime(text, d, d, "day")


def _weekday_delta(delta: int, direction: str, past: bool) -> int:
    """Days from the anchor to the weekday named, ``delta`` days away within its week."""
    if direction == "next":
        # "next Friday" is the Friday of next week; "this Friday" the one of this week.
        return delta + 7
    if direction == "last":
        return delta - 7 if delta >= 0 else delta
    if direction == "on" and past:
        # "on Friday" in a past-tense sentence is the latest Friday up to the anchor.
        return delta if delta <= 0 else delta - 7
    if direction == "on":
        return delta if delta >= 0 else delta + 7
    return delta


def find_relative_times(text: str, anchor: datetime) -> list[ResolvedTime]:
    """Every relative time phrase in ``text``, resolved in the anchor's own timezone."""
    day = anchor.date()
    past = _PAST.search(text) is not None
    found: list[tuple[int, ResolvedTime]] = []
    taken: list[tuple[int, int]] = []
    for pattern, kind in _PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < b and a < m.end() for a, b in taken):
                continue
            taken.append((m.start(), m.end()))
            found.append((m.start(), _resolve(m, kind, day, past)))
    return [r for _, r in sorted(found, key=lambda p: p[0])]


def resolve_in_text(text: str, anchor: datetime) -> tuple[str, ResolvedTime | None]:
    """``text`` with each relative phrase replaced by its date, and the first one found.

    "went to Paris yesterday" said on 2026-01-10 becomes "went to Paris on 2026-01-09",
    a statement that stays true whenever it is read.
    """
    times = find_relative_times(text, anchor)
    if not times:
        return text, None
    out = text
    for t in times:
        word = "in" if t.precision in ("month", "year") else ("during" if t.precision == "week" else "on")
        out = re.sub(re.escape(t.text), f"{word} {t.label()}", out, count=1, flags=re.I)
    return out, times[0]
