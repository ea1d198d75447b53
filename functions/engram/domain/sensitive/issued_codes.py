"""A code an account or a place issues, after its word and a longer description of what it
is for ("your access code for the online exam marking platform is MARK-7Q2X-44KP", "code
d'accès temporaire au portail fournisseurs est : 7KX-44P-2QM", "el PIN de la tarjeta de
gasolina del coche de empresa es 8823"). The value must look like an issued code: groups of
capitals and digits with at least one digit, or digits, maybe grouped."""

from __future__ import annotations

import re

from engram.domain.sensitive.named_codes import OTHER_CODE as _OTHER_CODE
from engram.domain.sensitive.named_codes import a_key_size_after, postal_pin_code
from engram.domain.sensitive.prefilter import keyed

_CODE_WORD = (
    r"(?:access|account|verification|security|one[\s\-]time|sms|login|sign[\s\-]?in|entry|enrol{1,2}ment"
    r"|toilet|keypad|smartcard|parent|authentication|room\s+key"
    # (a copier's department or user code: "copier department code for Science dept: 40427")
    r"|(?:copier|photocopier|printer|copy)(?:\s+(?:department|dept|user|account|release|job))?)\s+(?:code|key|pin|passcode)"
    r"|passcode|pin(?:\s+code)?|pin-code|c[óo]digo\s+(?:de\s+)?(?:acceso|acesso|verificaci[óo]n|verifica[çc][ãa]o"
    r"|seguridad|seguran[çc]a|sms)|c[óo]digo\s+sms|code\s+d['’]acc[èe]s|code\s+de\s+v[ée]rification"
    r"|codice\s+(?:di\s+)?(?:accesso|verifica|sicurezza)|zugangscode|best[äa]tigungscode|elterncode|zugangs-?pin"
    # a SIM's unlock key, a meeting's host key, Mexico's card PIN (upper case: "nip" is a
    # word), Danish and Norwegian codes ("adgangskoden til portalen er 4821-77")
    r"|puk2?(?:\s+code)?|host\s+key|(?-i:NIP)|(?:adgangs|sikkerheds|bekr[æa]ftelses)koden?"
)
# Words between the code's word and its value: what it is for, maybe in brackets, never a
# copula (which would make a later number the value of something else).
_FILLER = (
    r"(?:\s+(?:\([^()\n]{0,60}\)|\d{1,2}\.(?=\s)|(?!(?:is|was|are|were|es|est|ist|é|è|är|era|will|expires?|has|had)"
    r"(?![\w']))[^\s.:;!?()=]+)){0,10}?"
)
_SEP = r"\s*(?:(?<![\w])(?:is|was|es|est|é|è|ist|lautet|är|er)(?![\w])\s*:?|:|=|→|->|\s[\-–—])\s*"
_VALUE = (
    r"(?P<value>(?=[A-Za-z0-9\-]*\d)(?:[A-Z0-9]{4,10}|[A-Za-z0-9]{2,8}(?:-[A-Za-z0-9]{2,8}){1,4})"
    r"|[#*]?\d{3,8}#?|\d{2,4}(?:[ \-]\d{2,4}){1,3})"
)
_ISSUED_CODE_RE = keyed(
    r"(?<![\w])(?:" + _CODE_WORD + r")(?![\w])" + _FILLER + _SEP + _VALUE + r"(?![\w\-/.,]\w|[\w\-])",
    re.IGNORECASE,
)


_HARDWARE = re.compile(
    r"\b(?:count|socket|header|connector|gpio|cpu|chip|cable|plug|pinout|voltage|board|wire|lga|dip)\b", re.IGNORECASE
)


# A number typed on a keypad, ended by its "*" or "#", a few words after a code's word: a lock's
# code whatever the lock is called ("the comms room code 1937*", "code for the bike store 4410#",
# "door keypad 3317*").
_KEYPAD_VALUE = keyed(
    r"(?<![\w])(?:codes?|pin|combo|combination|keycode|passcode|key\s?pad)(?![\w])[^.\n;!?]{0,40}?(?<![\w*#+])"
    r"(?P<value>\d{4,8}[#*])(?![\w#*])",
    re.IGNORECASE,
)


# A code given with its length, as a note to oneself or a sticky note writes it ("bank app:
# 6 digits 204817", "the PIN, 4 digits: 0917"): the count said is the value's own, so the
# number is something to type. Not a card's or an account's last digits, nor a number an
# order's, a phone's or a reference's word names.
_COUNTED = keyed(
    r"(?<![\w])(?P<count>[4-8]|four|five|six|seven|eight)[\s\-]?digits?(?:\s+(?:long|code|pin))?\s*[:\-–—=]?\s*"
    r"(?P<value>\d{4,8})(?![\w\-]|[.,]\d)",
    re.IGNORECASE,
)
_COUNTS = {"four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_OTHER_NUMBER_BEFORE = re.compile(
    r"\b(?:last|first|final|ending|ends|order|phone|mobile|tel|account|acct|card|ref|reference|tracking|policy"
    r"|member|customer|invoice|ticket|case|sort|routing|iban|postcode|zip|ssn|id|serial|otp\s+length)\b",
    re.IGNORECASE,
)


# A number's own noun before the count in its clause ("Employee number is 6 digits", "Room
# numbers here are 4 digits", "Enter the year as 4 digits", "The extension is 4 digits"): the
# count says how that number is written, and the value is one. A code's word in the same
# clause ("PIN number is 4 digits") still makes it a code.
_NUMBER_NOUN = re.compile(
    r"(?<![\w])(?:numbers?|\w*nummer\w*|num[ée]ro|n[úu]mero|no\.|nr\.?|years?|extension|ext\.?|rooms?|postcodes?"
    r"|zips?|dates?|plz)(?![\w])",
    re.IGNORECASE,
)
_CODE_NOUN = re.compile(r"(?<![\w])(?:pin|codes?|passcode|password|otp|tan)(?![\w])", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.;!?\n]")


def _counted_code(text: str) -> bool:
    for m in _COUNTED.finditer(text):
        count = m.group("count").lower()
        said = _COUNTS[count] if count in _COUNTS else int(count)
        if len(m.group("value")) != said or _OTHER_NUMBER_BEFORE.search(text, max(0, m.start() - 30), m.start()):
            continue
        clause = _CLAUSE_END.split(text[max(0, m.start() - 40) : m.start()])[-1]
        if _NUMBER_NOUN.search(clause) is None or _CODE_NOUN.search(clause) is not None:
            return True
    return False


def _keypad_code(text: str) -> bool:
    return any(
        _OTHER_CODE.search(text, max(0, m.start() - 24), m.start()) is None and not _HARDWARE.search(m.group())
        for m in _KEYPAD_VALUE.finditer(text)
    )


def _keypad_or_counted(text: str) -> bool:
    return (("*" in text or "#" in text) and _keypad_code(text)) or _counted_code(text)


def issued_code(text: str) -> bool:
    """A code an account or a place issues, after its word and what it is for."""
    if _keypad_or_counted(text):
        return True
    for m in _ISSUED_CODE_RE.finditer(text):
        value = m.group("value")
        if m.group().lower().startswith("pin") and postal_pin_code(text, value):
            continue  # India's postal PIN code ("pin code: 400050, Mumbai")
        if m.group().startswith("NIP") and not re.fullmatch(r"\d{4,6}", value):
            continue  # Poland's NIP is a tax id of ten digits; Mexico's card NIP has four
        if m.group().lower().startswith("host") and a_key_size_after(text, m.end()):
            continue  # an SSH host key's size ("a new host key: 4096 (RSA)")
        if _HARDWARE.search(m.group()):
            continue  # a chip's or a connector's pins ("the pin count on the cpu socket is 1700")
        if re.fullmatch(r"[A-Za-z]{0,3}\d{1,3}", value) and not value.isdigit():
            continue  # a short label ("v2", "A12")
        if re.fullmatch(r"(?:19|20)\d\d", value) and not m.group().lower().startswith(("pin", "passcode")):
            continue  # a year after a long description, not a code
        if any(c.isalpha() for c in value) and not any(c.isupper() for c in value.split("-")[0] + value):
            continue  # lower-case words and a number ("covid-19"): a name, not an issued code
        return True
    return False
