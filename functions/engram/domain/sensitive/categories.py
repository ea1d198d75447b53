"""The four categories of the sensitive-data filter, the match it reports, and how it reads words."""

from __future__ import annotations

import re
from dataclasses import dataclass

SECRET = "secret"
CARD = "payment_card"
GOVERNMENT_ID = "government_id"
BANK = "bank_account"

_DESCRIPTIONS = {
    SECRET: "a password, PIN, secret or credential",
    CARD: "a payment card number",
    GOVERNMENT_ID: "a government identity number",
    BANK: "a bank account number",
}


@dataclass(frozen=True, slots=True)
class SensitiveMatch:
    rule: str
    description: str


def sensitive_match(rule: str) -> SensitiveMatch:
    return SensitiveMatch(rule, _DESCRIPTIONS[rule])


WORDS = re.compile(r"[^\W\d_]+|\d+")
