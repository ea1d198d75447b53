"""Fact extraction (behaviour item 14): what an extractor finds in a user message, and
the messages no extractor reads (greetings, acknowledgements, laughter).

Two extractors produce an ``Extraction``: the rules (``extraction_rules``, no model, no
cost) and a model on Bedrock (``adapters/bedrock_extractor.py``). Pure, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

# Categories extraction may produce: the system's own vocabulary (Mona's table).
EXTRACTION_CATEGORIES = ("fact", "preference", "event", "feeling", "other")
LLM_CONFIDENCE = 0.85


@dataclass(frozen=True, slots=True)
class ExtractedFact:
    key: str
    value: str
    category: str
    confidence: float
    importance: int
    statement: str  # the sentence it came from, as said (already free of sensitive data)
    rule: str
    valid_from: datetime | None = None


@dataclass(frozen=True, slots=True)
class IdentityUpdate:
    """Names the user gave: their own ("my name is", "call me") or the agent's."""

    name: str | None = None
    nickname: str | None = None
    agent_name: str | None = None

    def fields(self) -> tuple[str, ...]:
        return tuple(
            f for f, v in (("name", self.name), ("nickname", self.nickname), ("agentName", self.agent_name)) if v
        )


@dataclass(frozen=True, slots=True)
class LlmUsage:
    model_id: str
    input_tokens: int
    output_tokens: int
    cost_usd: float


@dataclass(frozen=True, slots=True)
class Extraction:
    facts: list[ExtractedFact] = field(default_factory=list)
    identity: IdentityUpdate = IdentityUpdate()
    dropped: dict[str, int] = field(default_factory=dict)
    skipped: str | None = None  # "trivial": the whole message carried nothing
    usage: LlmUsage | None = None


# -- messages no extractor reads ------------------------------------------------------------------
_TRIVIAL = frozenset(
    [
        "ok",
        "okay",
        "k",
        "kk",
        "okey",
        "okie",
        "thanks",
        "thx",
        "ty",
        "tysm",
        "lol",
        "lmao",
        "rofl",
        "haha",
        "hahaha",
        "hehe",
        "wkwk",
        "wkwkwk",
        "hmm",
        "hm",
        "hmmm",
        "yes",
        "yeah",
        "yep",
        "yup",
        "ya",
        "no",
        "nope",
        "nah",
        "sure",
        "cool",
        "nice",
        "great",
        "awesome",
        "alright",
        "good",
        "fine",
        "bye",
        "goodbye",
        "hi",
        "hello",
        "hey",
        "yo",
        "gn",
        "gm",
        "np",
        "right",
        "oh",
        "ah",
        "wow",
    ]
)


_TRIVIAL_PHRASES = frozenset(
    {
        "thank you",
        "thank u",
        "got it",
        "good night",
        "good morning",
        "no problem",
        "ok thanks",
        "okay thanks",
        "sounds good",
        "i see",
        "see you",
        "see ya",
    }
)


def is_trivial(text: str) -> bool:
    """Acknowledgements and small talk ("ok", "thanks", "wkwk") carry no facts."""
    words = re.sub(r"[^\w\s']", " ", text.casefold()).split()
    if not words:
        return True
    phrase = " ".join(words)
    if phrase in _TRIVIAL_PHRASES or (len(words) == 1 and (words[0] in _TRIVIAL or len(words[0]) <= 2)):
        return True
    if re.fullmatch(r"(?:ha|he|hi|wk|lo?l)+", phrase.replace(" ", "")):
        return True
    return all(w in _TRIVIAL for w in words) and len(words) <= 3
