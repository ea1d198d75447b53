"""Ids whose written form alone says what they are: an SSN's groups, a UK National Insurance
number, a UK driving licence, an Italian codice fiscale, a passport's machine-readable zone,
US driving licences of a distinctive printed form beside their state or a driving word."""

from __future__ import annotations

import re

from engram.domain.sensitive.cards import NOT_A_CARD_BEFORE
from engram.domain.sensitive.categories import longest_digit_run
from engram.domain.sensitive.national_id_words import NOT_AN_SSN_AFTER, another_numbers_form

# (not a slice of a longer run of groups: "1Z 94X 827 03 4819 2736" is a parcel's tracking number)
_SSN_RE = re.compile(r"(?<![\d\-.])(?!000|666)\d{3}([ \-.])(?!00)\d{2}\1\n?(?!0000)\d{4}(?![\d])(?![\-/]\w)(?!\1\d)")
_BARE_SSN_RE = re.compile(r"\s*(?!000|666|9)\d{3}(?!00)\d{2}(?!0000)\d{4}\s*")
_UK_NINO_RE = re.compile(r"\b(?!BG|GB|NK|KN|TN|NT|ZZ)(?![DFIQUV])[A-Z](?![DFIOQUV])[A-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b")
# (DVLA's licence prints the number in three groups: "MORGA 753116 SM9IJ")
_UK_DRIVING_RE = re.compile(r"\b[A-Z9]{5} ?\d{6} ?[A-Z9]{2}\d[A-Z]{2}\b")
_CODICE_FISCALE_RE = re.compile(r"\b[A-Z]{6}\d{2}[A-EHLMPRST]\d{2}[A-Z]\d{3}[A-Z]\b")


# US driving licences whose printed form is distinctive (a letter, then digits in the
# state's dashed groups: Florida, Illinois, Wisconsin, Maryland, Michigan spaced), beside
# the state's name or code or a driving word.
_US_LICENCE_RE = re.compile(
    r"[A-Z](?<![\w\-].)(?:\d{3}-\d{3}-\d{2}-\d{3}-\d|\d{3}-\d{4}-\d{4}(?:-\d{2})?|-\d{3}-\d{3}-\d{3}-\d{3}"
    r"| \d{3} \d{3} \d{3} \d{3})(?![\w\-])"
)
# (the states' codes in capitals only: "il" and "mi" are Italian's and Spanish's everyday
# words, "md" a file's extension)
_US_LICENCE_CONTEXT = re.compile(
    r"\b(?:(?-i:FL|IL|WI|MD|MI)|florida|illinois|wisconsin|maryland|michigan|dmv|dl|driver'?s?|driving|licen[cs]e|lic)\b",
    re.IGNORECASE,
)


def _us_licence(text: str) -> bool:
    return any(
        _US_LICENCE_CONTEXT.search(text, max(0, m.start() - 60), min(len(text), m.end() + 40))
        for m in _US_LICENCE_RE.finditer(text)
    )


def id_by_format(text: str) -> bool:
    """Ids whose written form alone says what they are (an SSN's dashes, a UK NINO, ...)."""
    if any(_ssn_not_another_number(text, m) for m in _SSN_RE.finditer(text)):
        return True
    if _BARE_SSN_RE.fullmatch(text):
        return True
    if "<<" in text and _MRZ_RE.search(text):
        return True
    if longest_digit_run(text) >= 6 and _UK_DRIVING_RE.search(text):  # six digits in a row
        return True
    if any(not another_numbers_form(text, m.start()) for m in _UK_NINO_RE.finditer(text)):
        return True  # (not "booking ref JK123456C")
    return bool(_CODICE_FISCALE_RE.search(text) or _us_licence(text))


_SSN_WORD = re.compile(r"\b(?:ssn|social\s+security)\b", re.IGNORECASE)
# Digits run on right before or after an SSN's spaced form (review rv9).
_RUNS_ON = re.compile(r"\d \|| \d")
_BY_PHONE = re.compile(r"\b(?:over|on|by|via)\s+(?:the\s+)?$", re.IGNORECASE)


def _ssn_not_another_number(text: str, m: re.Match[str]) -> bool:
    """An SSN's form is another number's after a phone's, order's or ticket's word, unless an
    SSN's word comes between or the phone is how it was given ("the SSN you read me over the
    phone (349-65-5924)" is one)."""
    if NOT_AN_SSN_AFTER.match(text, m.end()):
        return False  # "118-22-0473 (clinic internal, not SSN)"
    if another_numbers_form(text, m.start()):
        return False  # "my claim number is 465 36 6822", "policy number 349-65-5924", "room 123-45-6789"
    runs_on = text[max(0, m.start() - 2) : m.start()] + "|" + text[m.end() : m.end() + 2]
    if m.group(1) == " " and _RUNS_ON.search(runs_on):
        # a piece of a longer spaced number, unless an SSN's word names it ("S 01 801 12 3456 7890 123")
        return _SSN_WORD.search(text, max(0, m.start() - 40), m.start()) is not None
    other = None
    for other in NOT_A_CARD_BEFORE.finditer(text, 0, m.start()):
        if _BY_PHONE.search(text, max(0, other.start() - 12), other.start()) and _SSN_WORD.search(text, 0, m.start()):
            other = None
    return other is None or _SSN_WORD.search(text, other.end(), m.start()) is not None


# A passport's machine-readable zone: its second line (number, check digit, nationality,
# birth date, check digit, sex, expiry, check digit).
_MRZ_RE = re.compile(r"[A-Z0-9<]{9}\d[A-Z<]{3}\d{6}\d[MFX<]\d{6}\d[A-Z0-9<]{14}[\d<]\d")
