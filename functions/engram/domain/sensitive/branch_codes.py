"""A bank's branch code is no account: what a text holds when its only account-length numbers
are branch codes named by their words.

A sort code (six digits), an Australian BSB (six), a US routing or ABA number (nine), a
German BLZ (eight), a Canadian transit number (five, or eight and nine with its institution)
and a Russian БИК (nine) name a bank or a branch; they are printed on every cheque and on the
bank's own pages, and nobody can be paid or debited with one alone. The rules read these words
as account words because a branch code is most often written with its account ("sort code
20-45-77, account 43917362"), and before, the branch code alone was excused only when the
text said in one of a list of wordings that the account was not given ("I'll send the account
number separately", "account number is on the statement", "to be confirmed", ...): people say
that in more ways than any list holds (held-out L: 22 texts refused). So the question is
asked of the numbers, not of the words about the missing one: when every number of an
account's length in the text is a branch code after its own word, no account is there,
whatever is said of it. A second number of five digits or more (the account, written anywhere
and in any form) keeps the text an account's; so does a branch code's word before more
digits than its code has ("BSB 062000 12345678": the code and the account run together).
An IBAN's first characters alone, the bank's code in them, are such a code too (below)."""

from __future__ import annotations

import re
from functools import lru_cache

from engram.domain.sensitive.prefilter import keyed

# Each branch code's word and the most digits its code has.
_CODE_DIGITS = {
    "sort": 6, "sc": 6, "nsc": 6, "bsb": 6, "branch": 6, "mfo": 6, "мфо": 6,
    "routing": 9, "aba": 9, "rtn": 9, "transit": 9, "бик": 9,
    "blz": 8, "bankleitzahl": 8,
}  # fmt: skip
# A branch code after its word: "sort code 20-45-77", "routing # 091000022", "ABA: 071000013",
# "BSB 062-000", "BLZ 500 105 17", "transit number 00012", "БИК 044525225", "МФО 305299",
# "branch code 250655" (South Africa's universal branch codes); the number's digits joined by
# single spaces, dashes, dots or slashes, as the account rule reads them.
_BRANCH_CODE = keyed(
    r"(?<![^\W_])(?P<word>sort|(?-i:SC|NSC)|bsb|routing|aba|(?-i:RTN)|transit|blz|bankleitzahl|бик|мфо|(?-i:MFO)"
    r"|branch)(?:[\s_\-]*(?:code|transit|number|num|no\.?|nr\.?|#|numéro|номер)){0,2}"
    # (a record's quotes around its key and value: {"routing_number":"121000358"})
    r"[\"']?\s*(?:is|es|ist|:|=|-|#|\()?\s*[\"']?(?P<num>\d(?:[ \-./]?\d){3,19})(?![\d])",
    re.IGNORECASE,
)
# An IBAN's head alone: its country, check digits and the bank's (and branch's) code, twelve
# characters at most (every IBAN has fifteen or more), the rest said to be elsewhere ("IBAN
# starts TR33 0006 1, rest is on the attached statement"): the bank's code, as a BLZ is.
_IBAN_HEAD = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]{2}(?P<num>\d{2}(?:[ ]?[0-9A-Z]{1,4}){0,3})(?![A-Za-z0-9]|[ \-][A-Za-z0-9])"
)
_IBAN_HEAD_MOST = 12


# A number that may be an account's: five digits or more, joined as above (an account with letters
# in it, "acct 44812-S90", has five).
_NUMBER = re.compile(r"\d(?:[ \-./]?\d){4,}")
# Dates and sums are no account ("form dated 2024-05-01", "amount 1.250.000").
_DATE = re.compile(
    r"(?:19|20)\d\d[\-./](?:0?[1-9]|1[0-2])[\-./](?:0?[1-9]|[12]\d|3[01])"
    r"|(?:0?[1-9]|[12]\d|3[01])[\-./](?:0?[1-9]|1[0-2])[\-./](?:19|20)?\d\d"
)
_MIN_ACCOUNT_DIGITS = 5


def _digits(number: str) -> int:
    return sum(map(str.isdigit, number))


@lru_cache(maxsize=8)
def only_branch_codes(text: str) -> bool:
    """Whether the text holds a number of an account's length and every such number is a bank's
    branch code after its word, no longer than that code ("routing 121000358, the account
    number is in her folder"; "sort code 40-05-15 not recognised")."""
    codes: set[tuple[int, int]] = set()
    for m in _BRANCH_CODE.finditer(text):
        word = m.group("word").lower()
        if _digits(m.group("num")) <= _CODE_DIGITS.get(word, 6):
            codes.add(m.span("num"))
    for m in _IBAN_HEAD.finditer(text):
        if len(re.sub(r"\s", "", m.group())) <= _IBAN_HEAD_MOST:
            codes.add(m.span("num"))
    if not codes:
        return False
    # (a sort code is written as a date is, "07-04-36": after its word it is the code, not a date
    # to leave out, or a text of sort codes alone held no number and was read as an account's)
    numbers = [
        m
        for m in _NUMBER.finditer(text)
        if _digits(m.group()) >= _MIN_ACCOUNT_DIGITS and (m.span() in codes or not _DATE.fullmatch(m.group()))
    ]
    return bool(numbers) and all(m.span() in codes for m in numbers)
