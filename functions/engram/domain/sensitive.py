"""Sensitive-data filter (behaviour item 9): what Engram refuses to remember.

Each rule has a stable name; an explicit write that trips one gets a 422 naming it and
extraction drops the fact and counts it. Checksums (Luhn, IBAN mod-97) keep ordinary
numbers such as phone numbers and order ids from being refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SEP = r"[ \-]?"
# A whole run of digit groups, not a slice of a longer one (IBANs and other long
# references contain 13-19 digit stretches that pass Luhn one time in ten).
_CARD_RE = re.compile(r"(?<!\w)(?<!\d[ \-])(?:\d" + _SEP + r"){12,18}\d(?![ \-]?\d)")
_SSN_RE = re.compile(r"(?<!\d)(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?!\d)")
_UK_NINO_RE = re.compile(r"\b(?![DFIQUV])[A-Z](?![DFIOQUV])[A-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b")
_IBAN_RE = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b")
_SECRET_WORDS = (
    r"(?:password|passwd|passcode|pass ?phrase|pin(?: code)?|secret|api[ _-]?key|access[ _-]?token"
    r"|auth[ _-]?token|private[ _-]?key|security code|cvv|cvc)"
)
_SECRET_STATEMENT_RE = re.compile(r"\b" + _SECRET_WORDS + r"\b\s*(?:is|was|=|:|will be)\s*\S+", re.IGNORECASE)
_SECRET_KEY_RE = re.compile(r"(?:^|[_\-\s.])" + _SECRET_WORDS + r"(?:$|[_\-\s.])", re.IGNORECASE)
_TOKEN_RES = (
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),  # AWS access key id
    re.compile(r"\bsk-[A-Za-z0-9_\-]{20,}\b"),  # OpenAI / Anthropic style keys
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"),  # GitHub tokens
    re.compile(r"\bxox[abprs]-[A-Za-z0-9\-]{10,}\b"),  # Slack tokens
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    re.compile(r"\beyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\b"),  # JWT
)
_BANK_ACCOUNT_RE = re.compile(
    r"\b(?:account|acct|routing|sort code)(?: number| no\.?| #)?\s*(?:is|:|=)?\s*[\d\- ]{6,20}\d\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class SensitiveMatch:
    rule: str
    description: str


def luhn_valid(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def iban_valid(candidate: str) -> bool:
    iban = candidate.replace(" ", "").upper()
    if not 15 <= len(iban) <= 34:
        return False
    rearranged = iban[4:] + iban[:4]
    numeric = "".join(str(int(c, 36)) for c in rearranged)
    return int(numeric) % 97 == 1


def _card(text: str) -> bool:
    for m in _CARD_RE.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if 13 <= len(digits) <= 19 and len(set(digits)) > 1 and luhn_valid(digits):
            return True
    return False


def find_sensitive(text: str, key: str = "") -> SensitiveMatch | None:
    """The first sensitive-data rule the text (or the key naming it) trips, if any."""
    if key and _SECRET_KEY_RE.search(key):
        return SensitiveMatch("secret", "a password, PIN, secret or credential")
    if _card(text):
        return SensitiveMatch("payment_card", "a payment card number")
    if _SSN_RE.search(text) or _UK_NINO_RE.search(text):
        return SensitiveMatch("government_id", "a government identity number")
    for m in _IBAN_RE.finditer(text.upper()):
        if iban_valid(m.group()):
            return SensitiveMatch("bank_account", "a bank account number (IBAN)")
    if _BANK_ACCOUNT_RE.search(text):
        return SensitiveMatch("bank_account", "a bank account number")
    if _SECRET_STATEMENT_RE.search(text) or any(r.search(text) for r in _TOKEN_RES):
        return SensitiveMatch("secret", "a password, PIN, secret or credential")
    return None
