"""The four categories of the sensitive-data filter, the match it reports, and how it reads words."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

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

_DIGIT_RUN = re.compile(r"\d+")


@lru_cache(maxsize=8)
def longest_digit_run(text: str) -> int:
    """The most digits in a row in ``text``. A shape that needs more cannot be there, so
    its pattern is not tried: most long text holds short numbers only, and each pattern
    tried costs a scan of the whole text (several rules ask, so the answer is kept)."""
    return max(map(len, _DIGIT_RUN.findall(text)), default=0)
