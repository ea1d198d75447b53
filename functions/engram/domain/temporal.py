"""Time in questions: the span a question points at ("in June 2023", "last week").

Recall uses the span to look among what was said in it (messages by their own
timestamp, entries by when they were observed) and to prefer what falls inside it.
Relative phrases resolve against the time of asking; a month without a year means its
latest occurrence not after that time. Pure: no clock, the caller passes ``now``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from engram.domain.relative_time import find_relative_times

_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for m in names
}
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
# Most specific first: a day with its month beats the month alone.
_DAY_MONTH = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}(?:,?\s+{_YEAR})?\b", re.I)
_MONTH_DAY = re.compile(rf"\b{_MONTH}\s+{_DAY}\b(?:,?\s+{_YEAR})?", re.I)
_ISO_DAY = re.compile(r"\b(?P<year>(?:19|20)\d\d)-(?P<month>[01]\d)-(?P<day>[0-3]\d)\b")
# "May" is also a verb: a month name alone counts only with "in"/"during"/"of" before it
# or a year after it.
_MONTH_YEAR = re.compile(rf"\b{_MONTH}\s+{_YEAR}\b", re.I)
_IN_MONTH = re.compile(rf"\b(?:in|during|of|since|until|by)\s+(?:early\s+|late\s+|mid-?\s*)?{_MONTH}\b", re.I)
_IN_YEAR = re.compile(rf"\b(?:in|during|of)\s+{_YEAR}\b", re.I)


@dataclass(frozen=True, slots=True)
class TimeWindow:
    start: datetime  # inclusive
    end: datetime  # exclusive
    text: str  # the phrase it came from

    def contains(self, at: datetime) -> bool:
        return self.start <= at < self.end


def _window(start: date, end_inclusive: date, text: str, tz: object) -> TimeWindow:
    tzinfo = tz if tz is not None else UTC
    return TimeWindow(
        datetime.combine(start, time.min, tzinfo),  # type: ignore[arg-type]
        datetime.combine(end_inclusive + timedelta(days=1), time.min, tzinfo),  # type: ignore[arg-type]
        text,
    )


def _month_span(year: int, month: int) -> tuple[date, date]:
    first = date(year, month, 1)
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return first, nxt - timedelta(days=1)


def _year_for(month: int, day: int, now: datetime) -> int:
    """The latest year in which that month and day is not after ``now``."""
    year = now.year
    try:
        if date(year, month, min(day, 28)) > now.date():
            year -= 1
    except ValueError:
        year -= 1
    return year


def question_window(text: str, now: datetime) -> TimeWindow | None:
    """The span ``text`` asks about, or None when it names no time."""
    tz = now.tzinfo
    day = _named_day(text, now)
    if day is not None:
        return _window(day[0], day[0], day[1], tz)
    m = _MONTH_YEAR.search(text)
    if m is not None:
        start, end = _month_span(int(m.group("year")), _MONTHS[m.group("month").lower().rstrip(".")])
        return _window(start, end, m.group(0), tz)
    m = _IN_MONTH.search(text)
    if m is not None:
        month = _MONTHS[m.group("month").lower().rstrip(".")]
        start, end = _month_span(_year_for(month, 1, now), month)
        return _window(start, end, m.group(0), tz)
    m = _IN_YEAR.search(text)
    if m is not None:
        year = int(m.group("year"))
        return _window(date(year, 1, 1), date(year, 12, 31), m.group(0), tz)
    found = find_relative_times(text, now)
    if found:
        r = found[0]
        return _window(r.start, r.end, r.text, tz)
    return None


def _named_day(text: str, now: datetime) -> tuple[date, str] | None:
    """The first valid date ``text`` names, and the words that name it; a date without a
    year is in the latest year where it is not after ``now`` (``_year_for``)."""
    for pattern in (_ISO_DAY, _DAY_MONTH, _MONTH_DAY):
        m = pattern.search(text)
        if m is None:
            continue
        month_text = m.group("month").lower().rstrip(".")
        month = int(month_text) if month_text.isdigit() else _MONTHS.get(month_text)
        day = int(m.group("day"))
        if month is None or not 1 <= month <= 12 or not 1 <= day <= 31:
            continue
        year = int(m.group("year")) if m.group("year") else _year_for(month, day, now)
        try:
            return date(year, month, day), m.group(0)
        except ValueError:
            continue
    return None


def time_match(at: datetime | None, window: TimeWindow | None) -> float:
    """1 inside the window, fading to 0 over one window length on either side."""
    if at is None or window is None:
        return 0.0
    if window.contains(at):
        return 1.0
    span = max((window.end - window.start).total_seconds(), 86400.0)
    gap = (window.start - at).total_seconds() if at < window.start else (at - window.end).total_seconds()
    return max(0.0, 1.0 - gap / span)
