"""Nordic accounts by their printed forms: Sweden's clearing number and account beside a bank's
name, Norway's 4.2.5 with its mod-11 check digit."""

from __future__ import annotations

import re

# Sweden: a clearing number (four digits, Swedbank's with a fifth after a dash), then the
# account's 7 to 10 digits ("6000-448 129 077 (Handelsbanken)"), beside a bank's name or
# "clearing". Norway: eleven digits as 4.2.5 with a mod-11 check digit ("6077.88.79002").
_SE_ACCOUNT_WORDS = frozenset(
    [
        *("clearing", "clearingnummer", "clearingnr", "handelsbanken", "swedbank", "nordea", "icabanken"),
        *("länsförsäkringar", "sparbanken", "skandiabanken", "danske"),
    ]
)
_SE_ACCOUNT_RE = re.compile(
    r"(?<![\d\-.])[1-9]\d{3}(?:-\d)?(?:-|,\s*|\s+)(?P<account>\d{1,4}(?:[ \-]?\d{2,4}){1,4}(?:-\d)?)(?![\d\-])"
)
_NO_ACCOUNT_RE = re.compile(r"([0-9](?<![\d.].)\d{3})([. ])(\d{2})\2(\d{5})(?![\d.])")
_NO_ACCOUNT_WORDS = ("konto", "account", "acct", "bank", "dnb", "nordea", "sparebank", "sbanken")
# ... or the country, or money sent to it ("Norwegian pension top-up for bestemor to 8601 11 17947"):
# the 4.2.5 form with its mod-11 check digit is an account's alone, no id or phone is written so
_NO_ACCOUNT_MONEY = ("norw", "norsk", "norge", "noreg", "overfør", "innbetal", "betal", "pension", "pensjon")
_NO_ACCOUNT_MONEY_WORDS = frozenset(
    {"transfer", "transferred", "send", "sent", "pay", "paid", "deposit", "top-up", "nok"}
)
# A number named as another thing's right before it, in the Nordic languages and English
# ("försäkringsnummer hos Länsförsäkringar: 4471-0028819" is an insurance policy's; not
# "kontonummer", "clearingnummer").
_OTHER_NUMBER_BEFORE = re.compile(
    r"(?:\w*(?<!konto)(?<!clearing)(?:nummer|nr)\b|\b(?:policy|insurance|member(?:ship)?|customer)\s+(?:number|no))"
    r"[^\d\n]{0,30}$",
    re.IGNORECASE,
)


def _no_account_valid(d: str) -> bool:
    r = sum(int(c) * w for c, w in zip(d[:10], (5, 4, 3, 2, 7, 6, 5, 4, 3, 2), strict=True)) % 11
    return r != 1 and (0 if r == 0 else 11 - r) == int(d[10])


def nordic_account(text: str, words: frozenset[str]) -> bool:
    if words & _SE_ACCOUNT_WORDS and any(
        7 <= sum(map(str.isdigit, m.group("account"))) <= 10
        and not _OTHER_NUMBER_BEFORE.search(text, max(0, m.start() - 50), m.start())
        for m in _SE_ACCOUNT_RE.finditer(text)
    ):
        return True
    named = any(n in w for w in words for n in _NO_ACCOUNT_WORDS + _NO_ACCOUNT_MONEY)  # (and "lønnskonto")
    if not (named or words & _NO_ACCOUNT_MONEY_WORDS):
        return False
    return any(
        _no_account_valid("".join(m.group(1, 3, 4)))
        and not _OTHER_NUMBER_BEFORE.search(text, max(0, m.start() - 50), m.start())
        for m in _NO_ACCOUNT_RE.finditer(text)
    )
