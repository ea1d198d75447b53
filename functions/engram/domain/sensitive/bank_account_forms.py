"""More countries' and files' account forms, each told by its own printed shape:

- New Zealand's bank-branch-account-suffix ("12-3140-0448126-00"): two digits of a bank in
  use (01-38), four of a branch, seven of an account and a suffix of two or three, dashed
  or spaced, beside a bank's name or a word of accounts or paying ("part 12-3140-..." is
  a part).
- A cheque's MICR on-us field: the digits between a transit symbol and an on-us symbol
  ("⑆ 5220884⑈", Canada's "⑈04471⑈004⑆ 5220884⑈ 112") are the account. Only a cheque
  line holds these symbols.
- Iceland's bank-ledger-account ("0159-26-480302") beside "reikningur" or a bank's word
  ("reikningur" alone is an invoice too: "reikningur 8210861599").
- A UK BACS payment row: a sort code of six digits, then an account of eight
  ("200000,41222919,"P HUGHES",1850.00"), in a text about a BACS file or sort codes."""

from __future__ import annotations

import re

_NZ_DASHED = re.compile(r"(?<![\d\-])(?:0[1-9]|[12]\d|3[0-8])-\d{4}-\d{7}-\d{2,3}(?![\d\-])")
_NZ_SPACED = re.compile(r"(?<!\d)(?<!\d )(?:0[1-9]|[12]\d|3[0-8]) \d{4} \d{7} \d{2,3}(?!\d)(?! \d)")
_NZ_WORDS = frozenset(
    {"account", "acct", "bank", "banking", "nz", "anz", "asb", "bnz", "westpac", "kiwibank", "tsb", "pay", "paid"}
    | {"payment", "deposit", "transfer", "bond", "rent", "salary", "wages", "stipend", "refund"}
)
_MICR_ON_US = re.compile(r"⑆\s?(\d(?:[ \-]?\d){4,16})\s?⑈")
# (a bank's number is 01xx to 11xx: "2024-11-004512" is a year, a month and a serial, a
# reference's or an invoice's; review rv5)
_IS_ACCOUNT = re.compile(r"(?<![\d\-])(?:0[1-9]|1[01])\d\d-\d{2}-\d{6}(?![\d\-])")
# Its words: the account's ("reikningur", "reikningsnúmer") or a bank's, not "banking",
# "bankruptcy" or "banknote".
_IS_WORDS = frozenset({"bank", "banki", "bankinn", "banka", "bankans", "bankanum", "bankareikningur"})
_BACS_ROW = re.compile(r"(?<![\d\-])\d{6}\s*[,;\t|]\s*\d{8}(?![\d\-.])")
_BACS_WORDS = frozenset({"bacs", "sortcode"})


def account_of_another_form(text: str, words: frozenset[str]) -> bool:
    """Whether the text holds an account in one of the forms above."""
    # (a record's key may run the words together: "BankAccountDetails")
    if (words & _NZ_WORDS or "bank" in text.lower()) and (
        any(len(set(m.group().replace("-", ""))) > 2 for m in _NZ_DASHED.finditer(text)) or _NZ_SPACED.search(text)
    ):
        return True
    if "⑈" in text and any(len(set(m.group(1))) > 2 for m in _MICR_ON_US.finditer(text)):
        return True
    if (words & _IS_WORDS or any(w.startswith("reikning") for w in words)) and _IS_ACCOUNT.search(text):
        return True
    bacs = bool(words & _BACS_WORDS) or "sort code" in text.lower()
    return bacs and _BACS_ROW.search(text) is not None
