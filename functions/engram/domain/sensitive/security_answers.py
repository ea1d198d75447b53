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
    r"|security\s+word|code\s*word)[^\n]{0,90}?"
    r"(?:\banswer\b(?:\s+is\b)?|->|→|=|\bis\b)\s*(?:a\s*:\s*)?[\"“'‘]?(?P<value>[A-Z][\w'’\-]+)"
    # (a "secret answer" is a security question's: quoted or capitalised; "is case sensitive" is none)
    r"|\bsecret\s+answer\b[^\n]{0,40}?(?:\bis\b|:|=|->|→)\s*(?:[\"“'‘](?P<quoted>[^\"”'’\n]{2,40})[\"”'’]"
    r"|(?-i:(?P<capital>[A-Z][\w'’\-]+)))"
    r"|[\"“'‘](?:what|who|where|which|name|first|favou?rite|mother)[^\"”'’\n]{3,60}[\"”'’]\s*(?:->|→|=|:|answer(?:\s+is)?|is)\s*"
    r"[\"“]?(?P<value2>[A-Z][\w'’\-]+)"
    # asked in a chat, answered on the next line ("... your security question?\nUser: first pet was Biscuit")
    r"|(?:security|secret)\s+question[^\n]{0,40}\?[ \t]*\n[ \t]*\w+:[^\n]{0,40}?\b(?:was|is)\s+"
    r"(?P<value3>[A-Z][\w'’\-]+)"
    # in brackets after its name, as a call's note gives it ("she gave her memorable word
    # (SARDINHA) on the call"): a name or a word in capitals, not "(optional)"
    r"|(?:memorable\s+(?:word|answer|place|name)|security\s+(?:word|answer)|secret\s+(?:word|answer)|code\s*word)"
    r"\s*\(\s*[\"“'‘]?(?-i:(?P<value4>[A-Z][\w'’\-]{2,30}))[\"”'’]?\s*\)",
    re.IGNORECASE,
)


QUESTION_STEMS = frozenset(["security", "secret", "memorable", "answer", "question", "codeword", "word"])


def security_answer(text: str) -> bool:
    for m in _SECURITY_ANSWER_RE.finditer(text):
        name = next(n for n in ("value", "quoted", "capital", "value2", "value3", "value4") if m.group(n))
        value = m.group(name).lower()
        if value in NOT_A_VALUE or value in _SAID_OF_THE_ANSWER or no_answer_given(text, m.start(name)):
            continue
        if _QUESTION_NAMED.match(text, m.start(name)) or value.endswith(("n't", "n’t")):
            continue  # the question itself ('security question ... is "first school"'), "answer isn't needed"
        return True
    return False


# What is said of an answer where the answer would be: "answer matched", "answer known to the
# CFO only", "answer isn't needed", "the answer is required".
_SAID_OF_THE_ANSWER = frozenset(
    [
        *("matched", "match", "matches", "known", "needed", "required", "verified", "accepted", "correct", "given"),
        *("provided", "set", "stored", "kept", "hidden", "withheld", "rejected", "failed", "checked", "confirmed"),
        *("on", "in", "with", "only", "case", "must", "should", "can", "will", "thing", "things", "stuff"),
        *("optional", "redacted", "masked", "removed", "unknown", "forgotten", "none", "see", "ask", "not"),
    ]
)


# A call's notes where the answer would be: who did not give it ("→ customer didn't remember",
# "-> caller couldn't answer, verified by SMS").
# (the one who did not is a person: "Okafor wasn't accepted by the bank" gives the answer)
_NO_ANSWER_GIVEN = re.compile(
    r"(?:(?:the|our|my|this)\s+)?(?:customer|caller|client|user|member|cardholder|card\s+holder|account\s*holder"
    r"|holder|patient|applicant|guest|person|he|she|they|i|we)\s+"
    r"(?:didn['’]?t|did\s+not|couldn['’]?t|could\s+not|can['’]?t|cannot|doesn['’]?t|wasn['’]?t|failed|refused|declined)"
    r"(?![\w])",
    re.IGNORECASE,
)


def no_answer_given(text: str, at: int) -> bool:
    return _NO_ANSWER_GIVEN.match(text, at) is not None


# The questions sites ask, named without their "security question" ("first pet: Biscuit",
# "mothers maiden name ... : Okonkwo", "city where parents met -> Galway"), answered after a
# separator; counted only when the text says they answer a site's question (an answer, a
# security word, a site or an account they are for): "my first pet was Biscuit" is a memory.
_QUESTION = (
    r"(?:mother'?s?|mothers|mum'?s|mom'?s)\s+maiden\s+name|first\s+(?:pet|school|car|teacher|job|street|concert|boss|love)"
    r"(?:'?s\s+name)?|childhood\s+(?:nickname|friend|street|hero|best\s+friend)|favou?rite\s+(?:teacher|food|book|movie"
    r"|film|band|colou?r|sport|team|place|holiday)|city\s+where\s+[\w\s]{2,25}?\s+(?:met|born|grew\s+up)"
    r"|(?:city|town)\s+(?:you\s+were|i\s+was)\s+born\s+in"
    r"|name\s+of\s+(?:your|my)\s+first\s+\w+|make\s+of\s+(?:your\s+|my\s+)?first\s+car|street\s+(?:you|i)\s+grew\s+up\s+on"
    r"|memorable\s+(?:info(?:rmation)?|data|date|word|name|place)|security\s+(?:word|answer)s?|sec\s+q|secret\s+word"
)
_ANSWERED = re.compile(
    r"(?<![\w])(?:" + _QUESTION + r")(?![\w])(?:\s*\))?"
    # (or a dash between spaces, a list's "question - answer", the answer a name: "favourite
    # teacher - Mrs Abernathy; first car - Morris Minor", not "first car - ask Dad")
    r"(?:[^\n:=>→?]{0,50}?(?:\?\s*(?:(?:the\s+)?answer(?:\s+is|\s*:)|a:)?|:\s*(?:a:)?|=|->|→|\s[-–—]\s+(?-i:(?=[\"“'‘«]?[A-Z]))"
    r"|\s(?:answer\s+is|is|was|are)(?![\w'’]))"
    # (or the answer right after the question, capitalised: "first school St Brigid's")
    r"|(?-i:[ \t](?=[A-Z])))\s*"
    r"(?P<value>[\"“'‘«]?(?:(?:mr|mrs|ms|miss|dr|st)\.?\s+)?[^\W\d_][\w'’.\-]{2,30}(?:\s+[A-Z][\w'’\-]+)?)",
    re.IGNORECASE,
)
_FOR_A_SITE = re.compile(
    r"\b(?:security|answers?|verification|question|memorable|hint|sec\s+q|reset)\b|\bq:|\ba:"
    r"|\bfor\s+(?:the\s+|my\s+)?(?:[\w\-]+\s+){0,2}(?:site|portal|bank|account|app|login|website|society|insurance)\b",
    re.IGNORECASE,
)
_NOT_AN_ANSWER = frozenset(
    [
        *("what", "which", "who", "where", "when", "how", "why", "none", "nothing", "unknown", "optional", "required"),
        *("forgot", "forgotten", "same", "the", "a", "an", "my", "your", "his", "her", "our", "their", "not", "never"),
        *("i", "it", "it's", "its", "that", "this", "something", "anything", "asked", "again", "different", "wrong"),
        # what is said about the question, not its answer ("the old one (first pet) was way too easy")
        *("way", "too", "very", "so", "easy", "hard", "simple", "obvious", "weak", "changed", "updated", "removed"),
        *("still", "also", "just", "really", "now", "deleted", "gone", "blank", "empty", "public", "guessable"),
        *("they", "we", "you", "he", "she", "them", "us", "me", "there", "here", "ask", "asks", "asked", "see"),
        # a form's instruction where the answer goes ("Answer: (please choose an answer you will remember)")
        *("please", "choose", "enter", "type", "select", "pick", "write", "fill", "answer", "answers"),
    ]
)


def answered_question(text: str) -> bool:
    """A site's security question named and answered ("first pet? answer is Mr Whiskers")."""
    if not _FOR_A_SITE.search(text):
        return False
    for m in _ANSWERED.finditer(text):
        if _QUESTION_NAMED.match(text, m.start("value")):
            # the question again, as a hint, or named after "sec q:": its answer may follow it
            # ("sec q: favourite teacher / a: mrs okafor")
            again = _ANSWERED.match(text, m.start("value"))
            if again is None or _QUESTION_NAMED.match(text, again.start("value")) or not _an_answer(text, again):
                continue
            return True
        if _an_answer(text, m):
            return True
    return False


def _an_answer(text: str, m: re.Match[str]) -> bool:
    words = m.group("value").strip("\"“”'‘’«».,").lower().split()
    value = words[-1] if words else ""
    if not value or value in _NOT_AN_ANSWER | NOT_A_VALUE or no_answer_given(text, m.start("value")):
        return False
    # (not "a: haven't set it up yet", "Memorable word NOT provided")
    return not words[0].endswith(("n't", "n’t")) and (len(words) == 1 or words[0] not in _NOT_FIRST)


_NOT_FIRST = frozenset(
    ["not", "never", "nicht", "nie", "pas", "non", "niet", "não", "nunca", "nessuno", "ikke", "inte"]
)


# (the question itself where the answer would be, quoted or after "the": 'is "first school"',
# 'hint from the bank: "the street you grew up on"')
_QUESTION_NAMED = re.compile(r"[\"“'‘«]?\s*(?:(?:the|your|my)\s+)?(?:" + _QUESTION + r")(?![\w])", re.IGNORECASE)
