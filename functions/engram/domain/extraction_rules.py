"""Rule-based fact extraction (behaviour item 14; the patterns of Mona, the source system,
made safer).

Each sentence of a user message is checked in order: sensitive data (dropped and
counted), questions, uncertain and hypothetical wording, ownership ("my", "I",
"I'm"), then the patterns below, each with the confidence and importance Mona gives
it (0.5 for a passing feeling up to 0.9 for a name). Relative times resolve against
the message's own timestamp. Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time

from engram.domain.extraction import ExtractedFact, Extraction, IdentityUpdate, is_trivial
from engram.domain.relative_time import resolve_in_text
from engram.domain.sensitive import find_sensitive
from engram.domain.sensitive.redaction import REDACTED

# -- sentence filters ----------------------------------------------------------------------
_UNCERTAIN = re.compile(
    r"\b(?:might|maybe|perhaps|probably|possibly|thinking about|thinking of|not sure|could|would|if|unless|"
    r"wonder(?:ing)?|guess|suppose|supposing|imagine|pretend|hypothetically|wish|let's say)\b",
    re.IGNORECASE,
)


_QUESTION_START = re.compile(
    r"^(?:do|does|did|am|are|is|was|were|can|could|should|would|will|what|who|where|when|why|how|which|have|has)\s",
    re.IGNORECASE,
)


_OWNERSHIP = re.compile(r"\b(?:i|i'm|im|i've|i'd|i'll|my|me|mine)\b", re.IGNORECASE)


_FILLER = re.compile(
    r"^(?:(?:actually|well|oh|so|btw|by the way|also|and|but|hey|um+|uh+|fyi|anyway|ok(?:ay)?|yes|yeah|no|"
    r"hi|hello|honestly|basically|just so you know)\b[\s,!.-]*)+",
    re.IGNORECASE,
)


_SENTENCES = re.compile(r"[^.!?;\n]+[.!?;]*")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCES.findall(text) if s.strip()]


# -- values and keys ------------------------------------------------------------------------
_VALUE_STOP = re.compile(
    r"\s*(?:,|;|:|\(|\bbut\b|\bbecause\b|\bsince\b|\bthough\b|\bwhich\b|\bso\b|"
    r"\band (?:i|i'm|my|me|you|it|that)\b|\btoo\b$|\bas well\b)",
    re.IGNORECASE,
)


_ARTICLES = re.compile(r"^(?:a|an|the|some|my|really|very|so)\s+", re.IGNORECASE)


_NAME_WORD = r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'\-]*"


_NOT_NAMES = frozenset(
    [
        "later",
        "tomorrow",
        "today",
        "tonight",
        "soon",
        "back",
        "again",
        "now",
        "then",
        "maybe",
        "please",
        "sometime",
        "anytime",
        "whenever",
        "if",
        "when",
        "after",
        "before",
        "baby",
        "babe",
        "dear",
        "honey",
        "buddy",
        "bro",
        "dude",
        "sir",
        "madam",
    ]
)


def _clip(value: str, max_words: int = 10) -> str:
    m = _VALUE_STOP.search(value)
    if m is not None and m.start() > 0:
        value = value[: m.start()]
    value = value.strip(" \t.!?;,\"'")
    words = value.split()
    return " ".join(words[:max_words])


def slug(text: str) -> str:
    text = _ARTICLES.sub("", text.strip())
    s = re.sub(r"[^\w]+", "_", text.casefold()).strip("_")
    return s[:60].rstrip("_")


def _name(raw: str, require_capital: bool) -> str | None:
    """A person's or agent's name: one to three words, never a time word or filler."""
    words = re.findall(_NAME_WORD, raw)[:3]
    if not words or words[0].casefold() in _NOT_NAMES:
        return None
    # "call me later": without "my name is" a name must look like one (capitalised).
    if require_capital and not words[0][0].isupper():
        return None
    cut = []
    for w in words:
        if w.casefold() in _NOT_NAMES or w.casefold() in ("and", "but", "or", "i", "from", "by"):
            break
        cut.append(w)
    if not cut:
        return None
    name = " ".join(cut)
    return name if any(c.isupper() for c in name) else name.title()


# -- the patterns ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Rule:
    name: str
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str], str, datetime], tuple[list[ExtractedFact], IdentityUpdate]]


def _fact(
    key: str,
    value: str,
    category: str,
    confidence: float,
    importance: int,
    sentence: str,
    rule: str,
    anchor: datetime,
) -> ExtractedFact | None:
    if not key or not value:
        return None
    value, when = resolve_in_text(value, anchor)
    statement, in_sentence = resolve_in_text(sentence, anchor)
    if when is None and in_sentence is not None:
        when = in_sentence
        if category == "event":
            # "Yesterday I went to Paris": the date belongs to the event itself.
            value = f"{value} ({in_sentence.label()})"
    valid_from = None
    if when is not None:
        valid_from = datetime.combine(when.start, time(0), tzinfo=anchor.tzinfo)
    return ExtractedFact(key, value, category, confidence, importance, statement, rule, valid_from)


def _facts(*facts: ExtractedFact | None) -> list[ExtractedFact]:
    return [f for f in facts if f is not None]


def _r_name(m: re.Match[str], s: str, at: datetime) -> tuple[list[ExtractedFact], IdentityUpdate]:
    name = _name(m.group("v"), require_capital=False)
    if name is None:
        return [], IdentityUpdate()
    return _facts(_fact("name", name, "fact", 0.9, 90, s, "name", at)), IdentityUpdate(name=name)


def _r_nickname(m: re.Match[str], s: str, at: datetime) -> tuple[list[ExtractedFact], IdentityUpdate]:
    name = _name(m.group("v"), require_capital=True)
    if name is None:
        return [], IdentityUpdate()
    return _facts(_fact("nickname", name, "fact", 0.9, 90, s, "nickname", at)), IdentityUpdate(nickname=name)


def _r_agent_name(m: re.Match[str], s: str, at: datetime) -> tuple[list[ExtractedFact], IdentityUpdate]:
    name = _name(m.group("v"), require_capital=True)
    return [], IdentityUpdate(agent_name=name) if name else IdentityUpdate()


def _r_favorite(m: re.Match[str], s: str, at: datetime) -> tuple[list[ExtractedFact], IdentityUpdate]:
    thing = slug(m.group("k") or "")
    key = f"favorite_{thing}" if thing else "favorite"
    return _facts(_fact(key, _clip(m.group("v")), "preference", 0.8, 80, s, "favorite", at)), IdentityUpdate()


def _r_like(m: re.Match[str], s: str, at: datetime) -> tuple[list[ExtractedFact], IdentityUpdate]:
    value = _clip(m.group("v"), 6)
    return _facts(_fact(f"likes:{slug(value)}", value, "preference", 0.7, 75, s, "like", at)), IdentityUpdate()


def _r_dislike(m: re.Match[str], s: str, at: datetime) -> tuple[list[ExtractedFact], IdentityUpdate]:
    value = _clip(m.group("v") or m.group("v2") or "", 6)
    return _facts(_fact(f"dislikes:{slug(value)}", value, "preference", 0.7, 75, s, "dislike", at)), IdentityUpdate()


_NOW_WORDS = re.compile(
    r"\s*\b(?:today|tonight|right now|now|at the moment|this (?:morning|afternoon|evening))\b.*$", re.I
)


_EVENT_FILLER = frozenset({"i", "i'm", "im", "am", "just", "recently", "finally", "to", "the", "a", "an", "my", "have"})


def _r_feeling(m: re.Match[str], s: str, at: datetime) -> tuple[list[ExtractedFact], IdentityUpdate]:
    # One key: a new feeling replaces the last one; the category's 6-hour TTL ends it.
    # A feeling is about the moment it was said, so "today" adds nothing to its value.
    value = _clip(_NOW_WORDS.sub("", m.group("v")), 5)
    return _facts(_fact("feeling", value, "feeling", 0.5, 70, s, "feeling", at)), IdentityUpdate()


def _r_event(m: re.Match[str], s: str, at: datetime) -> tuple[list[ExtractedFact], IdentityUpdate]:
    what = _clip(m.group("v"), 14)
    words = [w for w in re.findall(r"[\w']+", what.casefold()) if w not in _EVENT_FILLER][:3]
    return _facts(_fact("event:" + slug(" ".join(words)), what, "event", 0.6, 60, s, "event", at)), IdentityUpdate()


def _simple(
    key: str, category: str, confidence: float, importance: int, rule: str, max_words: int = 8
) -> Callable[[re.Match[str], str, datetime], tuple[list[ExtractedFact], IdentityUpdate]]:
    def build(m: re.Match[str], s: str, at: datetime) -> tuple[list[ExtractedFact], IdentityUpdate]:
        value = _clip(m.group("v"), max_words)
        k = key.replace("{v}", slug(value))
        return _facts(_fact(k, value, category, confidence, importance, s, rule, at)), IdentityUpdate()

    return build


_GENERIC_SUBJECT_STOP = frozenset(
    [
        "day",
        "week",
        "weekend",
        "morning",
        "evening",
        "night",
        "life",
        "mood",
        "head",
        "point",
        "question",
        "guess",
        "problem",
        "bad",
        "fault",
        "pleasure",
        "turn",
        "god",
        "goodness",
        "gosh",
        "word",
        "answer",
        "bet",
        "understanding",
        "apologies",
        "condolences",
    ]
)


def _r_generic(m: re.Match[str], s: str, at: datetime) -> tuple[list[ExtractedFact], IdentityUpdate]:
    subject = m.group("k").strip()
    if subject.split()[0].casefold() in _GENERIC_SUBJECT_STOP or subject.casefold().startswith(("name", "fav")):
        return [], IdentityUpdate()
    value = _clip(m.group("v"), 8)
    if value.casefold().split()[:1] in (["not"], ["going"], ["gonna"], ["killing"]):
        return [], IdentityUpdate()
    return _facts(_fact(slug(subject), value, "fact", 0.6, 55, s, "possessive", at)), IdentityUpdate()


_I = r"\bi"


_IM = r"\b(?:i'm|i am|im)"


_V = r"(?P<v>.+)"


_FEELINGS = (
    r"tired|exhausted|sleepy|sad|happy|stressed|anxious|excited|sick|ill|bored|angry|lonely|nervous|worried|"
    r"upset|frustrated|overwhelmed|hungry|down|great|good|awful|terrible|depressed|burnt out|burned out"
)


_DEGREE = r"(?:so |really |very |a bit |kind of |pretty |super |quite )?"


_RULES: list[_Rule] = [
    _Rule("name", re.compile(r"\bmy name(?: is|'s) " + _V, re.I), _r_name),
    _Rule("name", re.compile(_IM + r" called " + _V, re.I), _r_name),
    _Rule("nickname", re.compile(r"\b(?:you can |please |just )?call me " + _V, re.I), _r_nickname),
    _Rule(
        "agent_name",
        re.compile(r"\b(?:i'll|i will|i'm going to|i am going to|i'm gonna|let me) call you " + _V, re.I),
        _r_agent_name,
    ),
    _Rule("agent_name", re.compile(r"\byour name (?:is|will be) " + _V, re.I), _r_agent_name),
    _Rule("agent_name", re.compile(r"\bcall yourself " + _V, re.I), _r_agent_name),
    _Rule(
        "favorite",
        re.compile(r"\bmy (?:favou?rite|fave)(?: (?P<k>[a-z][a-z \-]{0,30}?))? (?:is|are|was|would be) " + _V, re.I),
        _r_favorite,
    ),
    _Rule(
        "dislike",
        re.compile(
            _I + r" (?:really |just )?(?:don't|do not|dont) (?:really )?(?:like|enjoy|love) " + _V + r"|"
            r"\bi (?:really |truly )?(?:hate|dislike|can't stand|cannot stand|detest|loathe) " + _V.replace("v", "v2"),
            re.I,
        ),
        _r_dislike,
    ),
    _Rule(
        "like",
        re.compile(_I + r" (?:really |also |absolutely |totally |just )?(?:like|love|enjoy|adore) " + _V, re.I),
        _r_like,
    ),
    _Rule("feeling", re.compile(_IM + r" feeling " + _DEGREE + _V, re.I), _r_feeling),
    _Rule("feeling", re.compile(_IM + r" " + _DEGREE + r"(?P<v>(?:" + _FEELINGS + r")\b.*)", re.I), _r_feeling),
    _Rule("feeling", re.compile(_I + r" feel " + _DEGREE + _V, re.I), _r_feeling),
    _Rule("allergy", re.compile(_IM + r" allergic to " + _V, re.I), _simple("allergy:{v}", "fact", 0.8, 85, "allergy")),
    _Rule(
        "location",
        re.compile(r"\b(?:i live|i'm living|i am living) in " + _V, re.I),
        _simple("location", "fact", 0.8, 70, "location"),
    ),
    _Rule(
        "employer", re.compile(_I + r" work (?:at|for) " + _V, re.I), _simple("employer", "fact", 0.8, 70, "employer")
    ),
    _Rule(
        "occupation",
        re.compile(_I + r" work as (?:an? )?" + _V, re.I),
        _simple("occupation", "fact", 0.8, 70, "occupation"),
    ),
    _Rule(
        "birthplace", re.compile(_I + r" was born in " + _V, re.I), _simple("birthplace", "fact", 0.8, 60, "birthplace")
    ),
    _Rule(
        "event",
        re.compile(
            r"(?P<v>\bi (?:just |recently |finally )?(?:went|got back|came back|returned|visited|moved|started|"
            r"finished|graduated|got married|got engaged|got promoted|met|bought|lost|won|traveled|travelled|flew|"
            r"ran|passed|failed|quit|adopted)\b.+)",
            re.I,
        ),
        _r_event,
    ),
    _Rule(
        "event",
        re.compile(
            r"(?P<v>(?:\bi'm|\bi am|\bim) (?:going to|flying to|traveling to|travelling to|moving to|visiting|"
            r"starting)\b.+)",
            re.I,
        ),
        _r_event,
    ),
    _Rule(
        "event",
        re.compile(
            r"(?P<v>\bi (?:have|'ve got|got) (?:a|an|my) (?:\w+ ){0,2}(?:appointment|meeting|exam|interview|party|"
            r"date|flight|trip|wedding|concert|deadline|surgery)\b.*)",
            re.I,
        ),
        _r_event,
    ),
    _Rule("possessive", re.compile(r"\bmy (?P<k>[a-z][a-z' ]{1,30}?) (?:is|are|was|were) " + _V, re.I), _r_generic),
]


def extract_facts(text: str, timestamp: datetime) -> Extraction:
    """Facts and identity from one user message said at ``timestamp``."""
    if is_trivial(text):
        return Extraction(skipped="trivial")
    dropped: Counter[str] = Counter()
    facts: list[ExtractedFact] = []
    identity = IdentityUpdate()
    for raw in sentences(text):
        sentence = _FILLER.sub("", raw).strip()
        if not sentence or is_trivial(sentence):
            continue
        reason = _not_a_fact(sentence)
        if reason is not None:
            dropped[reason] += 1
            continue
        found, ident = _apply_rules(sentence, timestamp)
        facts.extend(found)
        identity = IdentityUpdate(
            identity.name or ident.name,
            identity.nickname or ident.nickname,
            identity.agent_name or ident.agent_name,
        )
    kept: list[ExtractedFact] = []
    for f in facts:
        if find_sensitive(f.value, f.key) is not None:
            dropped["sensitive"] += 1
        else:
            kept.append(f)
    return Extraction(_dedupe(kept), identity, dict(dropped))


def _not_a_fact(sentence: str) -> str | None:
    """Why a sentence states no fact about the user, in the order checked; None: it may."""
    if REDACTED in sentence or find_sensitive(sentence) is not None:
        return "sensitive"
    if sentence.endswith("?") or _QUESTION_START.match(sentence):
        return "question"
    if _UNCERTAIN.search(sentence):
        return "uncertain"
    if not _OWNERSHIP.search(sentence) and not re.search(r"\byour name\b|\bcall yourself\b", sentence, re.I):
        return "not_owned"
    return None


def _apply_rules(sentence: str, at: datetime) -> tuple[list[ExtractedFact], IdentityUpdate]:
    facts: list[ExtractedFact] = []
    identity = IdentityUpdate()
    # Every rule gets its chance ("my name is Alice and I like pizza" holds two facts);
    # the rules are written so that no two read the same words as different facts.
    for rule in _RULES:
        m = rule.pattern.search(sentence)
        if m is None:
            continue
        found, ident = rule.build(m, sentence, at)
        facts.extend(found)
        identity = IdentityUpdate(
            identity.name or ident.name,
            identity.nickname or ident.nickname,
            identity.agent_name or ident.agent_name,
        )
    return facts, identity


def _dedupe(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """One fact per key within a message: the most confident (then the last said) wins."""
    best: dict[str, ExtractedFact] = {}
    for f in facts:
        if f.key not in best or f.confidence >= best[f.key].confidence:
            best[f.key] = f
    return list(best.values())
