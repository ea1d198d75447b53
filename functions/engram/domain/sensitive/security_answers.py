"""The answer to a security question (a secret: it resets an account), named or quoted, then
answered."""

from __future__ import annotations

import re

from engram.domain.sensitive.secret_words import NOT_A_VALUE

# The answer to a security question: the question named or quoted, then its answer
# ('security question "favorite teacher" answer Mrs Finkelstein', '"what street did you grow
# up on" -> Willowbrook', 'the answer to "mother's maiden name" ... is Kowalczyk').
_SECURITY_ANSWER_RE = re.compile(
    r"(?:security\s+(?:question|q\b)|secret\s+question|memorable\s+(?:word|answer|place|name)|answer\s+(?:to|for)"
    r"|security\s+word|code\s*word)[^\n]{0,60}?"
    r"(?:\banswer\b(?:\s+is\b)?|->|→|=|\bis\b)\s*[\"“'‘]?(?P<value>[A-Z][\w'’\-]+)"
    r"|[\"“'‘](?:what|who|where|which|name|first|favou?rite|mother)[^\"”'’\n]{3,60}[\"”'’]\s*(?:->|→|=|:|answer(?:\s+is)?|is)\s*"
    r"[\"“]?(?P<value2>[A-Z][\w'’\-]+)"
    # asked in a chat, answered on the next line ("... your security question?\nUser: first pet was Biscuit")
    r"|(?:security|secret)\s+question[^\n]{0,40}\?[ \t]*\n[ \t]*\w+:[^\n]{0,40}?\b(?:was|is)\s+"
    r"(?P<value3>[A-Z][\w'’\-]+)",
    re.IGNORECASE,
)


QUESTION_STEMS = frozenset(["security", "secret", "memorable", "answer", "question", "codeword", "word"])


def security_answer(text: str) -> bool:
    return any(
        (m.group("value") or m.group("value2") or m.group("value3")).lower() not in NOT_A_VALUE
        for m in _SECURITY_ANSWER_RE.finditer(text)
    )
