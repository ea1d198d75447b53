"""Conversation memory (behaviour item 13; Oasis, Mona and Mordecai): pure parts.

Threads of messages per user, the window an agent reads back (last N and/or a token
budget, oldest trimmed first), the rolling extractive summary, and the redaction that
keeps sensitive data out of stored messages. No I/O and no clock here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from engram.domain.relative_time import find_relative_times
from engram.domain.sensitive import SensitiveMatch, find_by_rules, find_sensitive
from engram.domain.sensitive.redaction import (
    REDACTED,
    redact_piece,
    replaced_whole,
    without_listed_values,
    without_named_values,
    without_repeats,
    words_with_numbers,
)
from engram.domain.sensitive.remembered import remembered, remembering

LIMIT_NOTICE = "Your conversation has been summarized and important information saved."


class MessageRole(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


@dataclass(frozen=True, slots=True)
class ThreadKey:
    """What names a thread: each agent has its own thread ids for each user.

    Agent B's ``t1`` is another thread than agent A's ``t1``, so nothing an agent sends
    can tell it whether another agent's thread exists (issue #22: posting to another
    agent's thread used to answer 403 where a free id answered 200).
    """

    tenant_id: str
    user_id: str
    agent_id: str
    thread_id: str


@dataclass(frozen=True, slots=True)
class ExtractionRecord:
    """What processing one message did: how many facts were written and what was dropped."""

    status: str  # "extracted" | "skipped"
    at: datetime
    extractor: str
    reason: str | None = None  # why skipped: trivial, memory_off, not_user_message
    outcomes: dict[str, int] = field(default_factory=dict)  # created/reinforced/superseded/...
    dropped: dict[str, int] = field(default_factory=dict)  # sensitive/uncertain/question/...
    identity: tuple[str, ...] = ()  # profile fields set: name, nickname, agentName
    usage: dict[str, float] = field(default_factory=dict)  # model calls: tokens in/out, cost in USD


@dataclass(frozen=True, slots=True)
class NewMessage:
    """A message as an agent sends it, before the store numbers it."""

    id: str
    role: MessageRole
    content: str
    timestamp: datetime
    metadata: dict[str, Any] = field(default_factory=dict)
    redactions: tuple[str, ...] = ()  # sensitive-data rules whose matches were removed

    def stored(self, tenant_id: str, user_id: str, thread_id: str, agent_id: str, seq: int, now: datetime) -> Message:
        """The message as a store keeps it: numbered, stamped and costed in tokens."""
        return Message(
            tenant_id=tenant_id,
            user_id=user_id,
            thread_id=thread_id,
            id=self.id,
            seq=seq,
            role=self.role,
            content=self.content,
            timestamp=self.timestamp,
            agent_id=agent_id,
            created_at=now,
            tokens=estimate_tokens(self.content),
            metadata=self.metadata,
            redactions=self.redactions,
        )


@dataclass(frozen=True, slots=True)
class Message:
    tenant_id: str
    user_id: str
    thread_id: str
    id: str
    seq: int  # append order within the thread, from 1
    role: MessageRole
    content: str
    # When the message was said (the client's clock, with its UTC offset kept so that
    # "yesterday" means the user's yesterday); relative times resolve against it.
    timestamp: datetime
    agent_id: str  # the agent the thread belongs to
    created_at: datetime  # when Engram stored it
    tokens: int
    metadata: dict[str, Any] = field(default_factory=dict)
    redactions: tuple[str, ...] = ()  # sensitive-data rules whose matches were removed
    extraction: ExtractionRecord | None = None

    def evolve(self, **changes: Any) -> Message:
        return replace(self, **changes)

    @property
    def thread_key(self) -> ThreadKey:
        return ThreadKey(self.tenant_id, self.user_id, self.agent_id, self.thread_id)


@dataclass(frozen=True, slots=True)
class Thread:
    tenant_id: str
    user_id: str
    thread_id: str
    agent_id: str  # whose thread: part of its key (ThreadKey); admins may read
    created_at: datetime
    updated_at: datetime
    last_seq: int = 0
    # Messages with seq >= window_start are in the live window; clearing at the message
    # limit moves it past the last message. Older messages stay stored (search, export).
    window_start: int = 1
    clears: int = 0

    @property
    def window_size(self) -> int:
        return max(0, self.last_seq - self.window_start + 1)

    @property
    def key(self) -> ThreadKey:
        return ThreadKey(self.tenant_id, self.user_id, self.agent_id, self.thread_id)


@dataclass(frozen=True, slots=True)
class ThreadSummary:
    """The rolling summary of one thread (Mordecai's /summaries/{actor}/{session})."""

    tenant_id: str
    user_id: str
    thread_id: str
    agent_id: str
    text: str
    covered_up_to: int  # the last seq folded into the text
    messages_covered: int
    updated_at: datetime
    version: int = 1

    @property
    def key(self) -> ThreadKey:
        return ThreadKey(self.tenant_id, self.user_id, self.agent_id, self.thread_id)


@dataclass(frozen=True, slots=True)
class ExtractionJob:
    """One message to index and extract facts from; the queue carries only these ids."""

    tenant_id: str
    user_id: str
    thread_id: str
    message_id: str
    agent_id: str

    def as_dict(self) -> dict[str, str]:
        return {
            "tenantId": self.tenant_id,
            "userId": self.user_id,
            "threadId": self.thread_id,
            "messageId": self.message_id,
            "agentId": self.agent_id,
        }

    @property
    def thread_key(self) -> ThreadKey:
        return ThreadKey(self.tenant_id, self.user_id, self.agent_id, self.thread_id)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ExtractionJob:
        return cls(
            str(d["tenantId"]),
            str(d["userId"]),
            str(d["threadId"]),
            str(d["messageId"]),
            str(d["agentId"]),
        )


def message_doc_id(agent_id: str, thread_id: str, message_id: str) -> str:
    """The search-index id of a message ("|" never occurs in API ids, so it is unambiguous).

    The agent is part of it, as of the thread's key: two agents' threads may share an id.
    """
    return f"msg|{agent_id}|{thread_id}|{message_id}"


def parse_message_doc_id(doc_id: str) -> tuple[str, str, str] | None:
    """``(agent id, thread id, message id)`` of a message's index id; None if it is not one.

    Ids written before threads were keyed by agent (``msg|<thread>|<message>``) are not
    read: ``python -m engram.local.migrate`` and the embedded index's own
    migration rewrite them (docs/conversations.md, "Upgrading").
    """
    parts = doc_id.split("|")
    return (parts[1], parts[2], parts[3]) if len(parts) == 4 and parts[0] == "msg" else None


def speaker_of(m: Message) -> str:
    """Who said it: the name the client gave (metadata ``speaker``), else the role."""
    named = m.metadata.get("speaker") if isinstance(m.metadata, dict) else None
    return named.strip() if isinstance(named, str) and named.strip() else m.role.value


def message_search_text(m: Message) -> str:
    """What the index holds of a message: who said it, what, and the dates its relative
    times meant when it was said ("yesterday" in a message of 7 May is 2023-05-06), so a
    later question about the date or the speaker can find it."""
    text = f"{speaker_of(m)}: {m.content}"
    times = find_relative_times(m.content, m.timestamp)
    if times:
        text += " (" + "; ".join(f"{t.text} = {t.label()}" for t in times) + ")"
    return text


def message_embedding_text(m: Message) -> str:
    """What the embedder sees of a message: its content alone. The speaker and the dates
    stay in the keyword text (``message_search_text``): a "Maya: " prefix shifts the
    vector of a short turn towards every other turn of Maya's (on the conversation
    evaluation it cut MiniLM's R@10 from 0.45 to 0.38, docs/recall.md)."""
    return m.content.strip()


def summary_doc_id(agent_id: str, thread_id: str) -> str:
    return f"sum|{agent_id}|{thread_id}"


def parse_summary_doc_id(doc_id: str) -> tuple[str, str] | None:
    """``(agent id, thread id)`` of a thread summary's index id; None if it is not one."""
    parts = doc_id.split("|")
    return (parts[1], parts[2]) if len(parts) == 3 and parts[0] == "sum" else None


# -- tokens and the window -----------------------------------------------------------------
PER_MESSAGE_OVERHEAD = 4


def estimate_tokens(text: str) -> int:
    """A model-free token estimate: about four characters per token for English text,
    plus the few tokens each chat message costs for its role markers."""
    return PER_MESSAGE_OVERHEAD + math.ceil(len(text) / 4)


@dataclass(frozen=True, slots=True)
class Window:
    messages: list[Message]  # oldest first
    tokens: int
    truncated: bool  # older window messages were left out by either limit


def fit_window(newest_first: Sequence[Message], last: int | None, token_budget: int | None) -> Window:
    """The last ``last`` messages, then trimmed oldest-first to fit ``token_budget``.

    Both limits compose (whichever bites first wins); ``newest_first`` is the window as
    far back as the caller read it.
    """
    kept: list[Message] = []
    total = 0
    for i, m in enumerate(newest_first):
        if last is not None and i >= last:
            break
        if token_budget is not None and total + m.tokens > token_budget:
            break
        kept.append(m)
        total += m.tokens
    kept.reverse()
    return Window(kept, total, len(kept) < len(newest_first))


# -- redaction --------------------------------------------------------------------------------
# A stop followed by more text ("123.45.6789", "e.g.x") is inside the sentence: splitting
# there would cut a number written with dots into pieces no rule recognises. Every
# character falls in some piece, so joining the pieces gives the text back. Chinese and
# Japanese stops end a sentence with no space after them ("パスワードは X です。明日は晴れ。").
_SENTENCE = re.compile(r"(?:[^.!?;\n。！？；]|[.!?;](?=[^\s.!?;]))+[.!?;。！？；]*\n?|[.!?;。！？；]+\n?|\n")
_CLAUSE = re.compile(r"[^,，]+[,，]?|[,，]")
# Words holding a digit and the runs of them set apart by spaces ("X1234567", "943 476 5919").
_NUMBER_RUN = re.compile(r"(?<!\S)[^\s\d]*+\d\S*+(?:[ \t]++[^\s\d]*+\d\S*+)*+")
# How many sentences back the word that names a value is looked for before the whole message.
_SENTENCES_BACK = 8
_WINDOWED_MAX = 30


def redact_sensitive(text: str) -> tuple[str, tuple[str, ...]]:
    """Remove what the sensitive filter refuses to store, as narrowly as it can.

    A number that trips a rule on its own (a card, an account) is replaced alone; in a
    clause that still trips one (a password statement, a token) the narrowest run of words
    the filter flags goes, widened to its phrase (``sensitive.redaction``).
    Returns the text and the rules that fired, one per replacement.
    """
    with remembering():  # the filter's verdict on a text is asked once (sensitive.remembered)
        return _redacted_text(text)


def _redacted_text(text: str) -> tuple[str, tuple[str, ...]]:
    first = _sensitive(text)
    if first is None:
        return text, ()
    rules: list[str] = []
    out: list[str] = []
    sentences = _SENTENCE.findall(text)
    for sentence in sentences:
        # (a message of one sentence, a sentence of one clause: already found flagged)
        if sentence != text and _sensitive(sentence) is None:
            out.append(sentence)
            continue
        parts: list[str] = []
        for clause in _CLAUSE.findall(sentence):
            numbers_out = _redact_numbers(clause, rules)
            match = _sensitive(numbers_out) if numbers_out != text else first
            if match is not None:
                rules.append(match.rule)
                numbers_out = redact_piece(numbers_out, flagged=True)
            parts.append(numbers_out)
        out.append("".join(parts))
    joined = "".join(out)
    # a message of one clause is what redact_piece left, which the filter passes
    clean = (len(sentences) == 1 and len(_CLAUSE.findall(text)) == 1) or _sensitive(joined) is None
    if not clean:
        _redact_across_sentences(out, rules)
    without_listed_values(sentences, out)
    if "".join(out) != joined:
        joined, clean = "".join(out), False
    return without_repeats(text, without_named_values(text, joined, known_clean=clean)), tuple(rules)


def _redact_across_sentences(sentences: list[str], rules: list[str]) -> None:
    """What no sentence trips alone but the message does: a value whose word is in another
    sentence ("Passport numbers. Mine is X1234567."), a card broken over lines. The numbers
    of the fewest sentences before and up to the one that completes a match go (the whole
    sentence when it has none); if matches still span further, every number, then all if a
    rule (not the learned stage alone) still matches.
    A long message goes straight to the numbers: the search by sentence costs a filter run
    per sentence and window, which a message of many short lines would make seconds."""
    for i in range(len(sentences) if len(sentences) <= _WINDOWED_MAX else 0):
        for j in range(i, max(-1, i - _SENTENCES_BACK), -1):
            match = _sensitive("".join(sentences[j : i + 1]))
            if match is None:
                continue
            rules.append(match.rule)
            for k in range(j, i + 1):
                sentences[k] = _NUMBER_RUN.sub(_number_redacted, sentences[k])
            window = "".join(sentences[j : i + 1])
            if remembered(find_by_rules, window) is not None:
                sentences[i] = replaced_whole(sentences[i])
            elif _sensitive(window) is not None:
                sentences[i] = redact_piece(sentences[i])
            break
    match = _sensitive("".join(sentences))
    if match is None:
        return
    rules.append(match.rule)
    for k, sentence in enumerate(sentences):
        sentences[k] = _NUMBER_RUN.sub(_number_redacted, sentence)
    # With no number left, the learned stage alone reading many sentences together finds no
    # value to remove (it wiped whole messages of everyday text); a rule still matching does.
    if remembered(find_by_rules, "".join(sentences)) is not None:
        sentences[:] = [REDACTED]


def _number_redacted(m: re.Match[str]) -> str:
    run = m.group()
    stop = run.rstrip(".,!?;:)'\"")
    return REDACTED + run[len(stop) :]


def redact_metadata(value: Any, key: str = "", rules: list[str] | None = None) -> tuple[Any, tuple[str, ...]]:
    """Message metadata (execution traces, tool calls) with sensitive data redacted.

    Kept, like the content, because the agent needs its trace back: every string is
    redacted as content is, a value whose key names a secret ("password", "card_number")
    is replaced whole, numbers are checked as text (a card sent as a JSON number), and
    keys that hold a secret themselves are replaced too.
    """
    with remembering():
        return _redacted_metadata(value, key, [] if rules is None else rules)


def _redacted_metadata(value: Any, key: str, found: list[str]) -> tuple[Any, tuple[str, ...]]:
    if isinstance(value, dict):
        return _redacted_mapping(value, found), tuple(found)
    if isinstance(value, list):
        return [redact_metadata(v, key, found)[0] for v in value], tuple(found)
    if isinstance(value, bool) or value is None:
        return value, tuple(found)
    return _redacted_scalar(value, key, found), tuple(found)


def _redacted_mapping(value: dict[Any, Any], found: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in value.items():
        name = str(k)
        in_key = _sensitive(name.replace("_", " "))
        if in_key is not None:
            found.append(in_key.rule)
            name = f"{REDACTED}{len(out)}"
        out[name] = redact_metadata(v, str(k), found)[0]
    return out


def _redacted_scalar(value: Any, key: str, found: list[str]) -> Any:
    """A string or number, redacted as text; ``key`` may say the whole value is secret."""
    text = value if isinstance(value, str) else str(value)
    whole = _sensitive(text, key) if key else None
    if whole is not None and _sensitive(text) is None:
        # Only the key says what it is ({"pin": "4821"}): the value goes whole.
        found.append(whole.rule)
        return REDACTED
    redacted, fired = redact_sensitive(text)
    if not fired:
        return value
    found.extend(fired)
    return redacted


def _sensitive(text: str, key: str = "") -> SensitiveMatch | None:
    # (the module's own name, looked up when asked: a test may count or replace it)
    return remembered(find_sensitive, text, key)


def _redact_numbers(clause: str, rules: list[str]) -> str:
    """A word holding a number the filter flags alone goes whole (``words_with_numbers``)."""
    out, pos = [], 0
    for start, end, number in words_with_numbers(clause):
        match = _sensitive(number)
        if match is not None:
            rules.append(match.rule)
        out += [clause[pos:start], clause[start:end] if match is None else REDACTED]
        pos = end
    return "".join(out) + clause[pos:]


# -- the rolling summary ------------------------------------------------------------------
SUMMARY_MAX_CHARS = 2000
_LINE_MAX = 200
_TRIVIAL_LINE = re.compile(
    r"^\W*(?:ok(?:ay)?|thanks?|thank you|thx|ty|lol|haha\w*|wkwk\w*|yes|yeah|yep|no|nope|sure|"
    r"cool|nice|great|hi|hello|hey|bye|hmm+)\W*$",
    re.IGNORECASE,
)


def roll_summary(previous: str | None, messages: Sequence[Message], max_chars: int = SUMMARY_MAX_CHARS) -> str:
    """Fold new messages into the summary: an extractive digest, one line per turn.

    Deterministic and model-free, so it can run on every Mth turn on the request path.
    Trivial turns and anything redacted are left out; when the digest grows past
    ``max_chars`` the oldest lines go first, so it always describes the recent past.
    """
    lines = [ln for ln in (previous or "").splitlines() if ln.strip()]
    for m in messages:
        if m.role not in (MessageRole.USER, MessageRole.ASSISTANT):
            continue
        line = _summary_line(m)
        if line is not None:
            lines.append(line)
    while lines and sum(len(ln) + 1 for ln in lines) > max_chars:
        lines.pop(0)
    return "\n".join(lines)


def _summary_line(m: Message) -> str | None:
    sentences = [s.strip() for s in _SENTENCE.findall(m.content) if s.strip()]
    keep = [s for s in sentences if REDACTED not in s and not _TRIVIAL_LINE.match(s) and find_sensitive(s) is None]
    if not keep:
        return None
    # The user's own words carry the facts; an assistant turn is remembered by its opening.
    text = " ".join(keep if m.role is MessageRole.USER else keep[:1])
    if len(text) > _LINE_MAX:
        text = text[: _LINE_MAX - 1].rstrip() + "…"
    return f"- {m.role.value} ({m.timestamp.date().isoformat()}): {text}"
