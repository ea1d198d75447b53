"""The context block an agent puts in its prompt: a pure, deterministic function.

Same inputs, same bytes (Mona's "deterministic prompt construction"): no clock, no
randomness, no dict or set ordering, nothing but the arguments. The format is stable
and versioned; docs/recall.md describes it line by line. Any change to it is a new
``FORMAT_VERSION``.

The token budget is enforced here with ``estimate_tokens``, a deterministic estimate
that needs no tokenizer download and leans high for English text (see docs/recall.md).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

FORMAT_VERSION = "2"
OPEN = f'<user-memory format="{FORMAT_VERSION}">'
CLOSE = "</user-memory>"
IDENTITY_HEADING = "About the user:"
PREFERENCES_HEADING = "Core preferences:"
MEMORIES_HEADING = "Relevant memories:"
EPISODES_HEADING = "From past conversations:"
# An episode line shows at most this many characters of its message: a long message
# would otherwise spend the budget that several relevant ones could share.
EPISODE_CHARS = 480
TOKEN_ESTIMATOR = "engram-estimate-v1"

_PIECE = re.compile(r"[A-Za-z]+|[0-9]+|\S")  # the pieces estimate_tokens counts, as documented
# The same count in three passes of the regex engine instead of a Python step per piece:
# runs of ASCII letters, runs of digits, and every other visible character (the ``\S``
# pieces are exactly the visible characters that are neither).
_LETTERS = re.compile(r"[A-Za-z]+")
_DIGITS = re.compile(r"[0-9]+")
_OTHER = re.compile(r"[^A-Za-z0-9\s]")
_SPACE = re.compile(r"\s+")


def estimate_tokens(text: str) -> int:
    """Tokens ``text`` costs: per line, its pieces plus one for the line break.

    A run of ASCII letters costs one token per 4 letters (rounded up), a run of digits
    one per 3, and every other visible character (punctuation, CJK, emoji) one. It is
    additive over lines, so a block's estimate is the sum of its lines' estimates.
    """
    if not text:
        return 0
    return sum(_line_tokens(line) for line in text.split("\n"))


def _line_tokens(line: str) -> int:
    # ceil(n / 4) is (n + 3) // 4 for whole n; _line_tokens_by_piece is the definition.
    return (
        1
        + sum([(len(run) + 3) // 4 for run in _LETTERS.findall(line)])
        + sum([(len(run) + 2) // 3 for run in _DIGITS.findall(line)])
        + len(_OTHER.findall(line))
    )


def _line_tokens_by_piece(line: str) -> int:
    """The estimate piece by piece, as documented (``_line_tokens`` is the same, faster)."""
    total = 1
    for piece in _PIECE.findall(line):
        first = piece[0]
        if first.isascii() and first.isalpha():
            total += math.ceil(len(piece) / 4)
        elif first.isascii() and first.isdigit():
            total += math.ceil(len(piece) / 3)
        else:
            total += 1
    return total


def clean(text: str) -> str:
    """One line, and no markup a value could use to close the block or forge a section."""
    flat = _SPACE.sub(" ", text).strip()
    return flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def subject_of(key: str) -> str:
    return " ".join(key.replace("_", " ").replace("-", " ").split())


@dataclass(frozen=True, slots=True)
class Identity:
    name: str | None = None
    nickname: str | None = None
    pronouns: str | None = None
    # What the user calls this agent ("Jarvis").
    agent_name: str | None = None


@dataclass(frozen=True, slots=True)
class Memory:
    """What the block shows of one entry."""

    id: str
    key: str
    value: str
    category: str
    updated_at: datetime
    statement: str | None = None


@dataclass(frozen=True, slots=True)
class Episode:
    """What the block shows of one past message (episodic memory)."""

    id: str
    speaker: str
    text: str
    at: datetime  # when it was said


Relevant = Memory | Episode


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str
    tokens: int
    identity_fields: tuple[str, ...]
    included: tuple[str, ...]
    # Ids left out because the budget was spent, in the order they were offered.
    over_budget: tuple[str, ...]


def identity_lines(identity: Identity) -> list[tuple[str, str]]:
    fields = (
        ("name", "Name", identity.name),
        ("nickname", "Prefers to be called", identity.nickname),
        ("pronouns", "Pronouns", identity.pronouns),
        ("agentName", "Calls you", identity.agent_name),
    )
    return [(f, f"- {label}: {clean(value)}") for f, label, value in fields if value and value.strip()]


def preference_line(m: Memory) -> str:
    return f"- {clean(subject_of(m.key))}: {clean(m.value)}"


def memory_line(m: Memory) -> str:
    line = f"- {clean(subject_of(m.key))}: {clean(m.value)}"
    if m.statement and m.statement.strip():
        line += f" ({clean(m.statement)})"
    return f"{line} [{m.category}, {m.updated_at.date().isoformat()}]"


def episode_line(e: Episode) -> str:
    text = clean(e.text)
    if len(text) > EPISODE_CHARS:
        text = text[: EPISODE_CHARS - 1].rstrip() + "…"
    return f"- [{e.at.date().isoformat()}] {clean(e.speaker)}: {text}"


def render(identity: Identity, preferences: Sequence[Memory], relevant: Sequence[Relevant], budget: int) -> Rendered:
    """The block within ``budget`` estimated tokens, filled in priority order.

    Identity first, then core preferences, then what is relevant to the message in the
    order given (memories and past messages ranked together), so the budget goes to the
    most relevant first whatever its kind. Memories are shown under one heading and
    episodes under another, each in rank order. A line that does not fit is left out and
    the next, shorter one may still fit; a section heading is paid for with its first
    line. Nothing to show renders as "".
    """
    frame = estimate_tokens(OPEN) + estimate_tokens(CLOSE)
    spent = 0
    offered: list[tuple[str, str, str]] = [
        (IDENTITY_HEADING, f"identity:{f}", line) for f, line in identity_lines(identity)
    ]
    offered += [(PREFERENCES_HEADING, m.id, preference_line(m)) for m in preferences]
    offered += [
        (MEMORIES_HEADING, r.id, memory_line(r)) if isinstance(r, Memory) else (EPISODES_HEADING, r.id, episode_line(r))
        for r in relevant
    ]
    shown: dict[str, list[str]] = {}
    included: list[str] = []
    fields: list[str] = []
    dropped: list[str] = []
    costs: dict[str, int] = {}
    for heading, ref, line in offered:
        cost = _line_tokens(line)
        if "\n" not in line:
            costs[line] = cost
        if heading not in shown:
            cost += _line_tokens(heading)
        if spent == 0:
            cost += frame
        if spent + cost > budget:
            if not ref.startswith("identity:"):
                dropped.append(ref)
            continue
        spent += cost
        shown.setdefault(heading, []).append(line)
        if ref.startswith("identity:"):
            fields.append(ref.removeprefix("identity:"))
        else:
            included.append(ref)
    if not shown:
        return Rendered("", 0, (), (), tuple(dropped))
    out = [OPEN]
    for heading in (IDENTITY_HEADING, PREFERENCES_HEADING, MEMORIES_HEADING, EPISODES_HEADING):
        if heading in shown:
            out.append(heading)
            out.extend(shown[heading])
    out.append(CLOSE)
    text = "\n".join(out)
    # estimate_tokens is additive over lines: the block costs what its lines cost, and
    # the shown lines were costed above (a line holding a line break is costed afresh).
    tokens = sum(costs[line] if line in costs else sum(map(_line_tokens, line.split("\n"))) for line in out)
    return Rendered(text, tokens, tuple(fields), tuple(included), tuple(dropped))
