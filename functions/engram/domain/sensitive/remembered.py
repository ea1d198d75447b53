"""The filter's verdicts remembered for the length of one redaction.

Redacting a message asks the filter about the same texts again and again: a sentence that
is its own clause, what is left after a cut, the words naming a slot with a canary value
after them ("account: Qv7#Lm2!Zp9x" once per line of a YAML file of accounts), the message
with no value masked. Each verdict costs a run of every rule and the learned stage, so a
pasted log of 2,000 accounts cost about 3 s and 96,000 characters of password words 12 s
(review rv4). A verdict depends only on the text (and its key): remembering it changes
nothing the redaction decides, it only stops asking twice.

The memory lives as long as the outermost ``remembering()`` block (one message's content or
metadata) and is per thread and per task (a context variable), so nothing of one message's
text outlives its request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from engram.domain.sensitive.categories import SensitiveMatch

__all__ = ["remembered", "remembered_as", "remembering"]

Check = Callable[..., SensitiveMatch | None]
_MEMORY: ContextVar[dict[tuple[Check, str, str], SensitiveMatch | None] | None] = ContextVar(
    "engram_sensitive_verdicts", default=None
)


@contextmanager
def remembering() -> Iterator[None]:
    """Remember verdicts until the outermost block ends (an inner one shares its memory)."""
    if _MEMORY.get() is not None:
        yield
        return
    token = _MEMORY.set({})
    try:
        yield
    finally:
        _MEMORY.reset(token)


def remembered(check: Check, text: str, key: str = "") -> SensitiveMatch | None:
    """``check(text, key)`` (``find_sensitive``, ``find_by_rules``), asked once per text in
    a ``remembering()`` block; outside one, asked every time."""
    memory = _MEMORY.get()
    slot = (check, text, key)
    if memory is not None and slot in memory:
        return memory[slot]
    verdict = check(text, key) if key else check(text)
    if memory is not None:
        memory[slot] = verdict
    return verdict


def remembered_as(
    check: Check, text: str, key: str, compute: Callable[[], SensitiveMatch | None]
) -> SensitiveMatch | None:
    """``compute()``, remembered as ``check(text, key)``'s verdict (what ``check`` would find,
    computed as part of a larger check): ``find_sensitive`` runs the rules as ``find_by_rules``
    does, and redaction asks both of the same text (96,000 characters of "the password is":
    1.4 s of the rules again)."""
    memory = _MEMORY.get()
    slot = (check, text, key)
    if memory is not None and slot in memory:
        return memory[slot]
    verdict = compute()
    if memory is not None:
        memory[slot] = verdict
    return verdict
