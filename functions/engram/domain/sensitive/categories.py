"""The four categories of the sensitive-data filter, the match it reports, and how it reads words."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

SECRET = "secret"
CARD = "payment_card"
GOVERNMENT_ID = "government_id"
BANK = "bank_account"
# What a kept text (a conversation message, a trace) holds where a value was redacted.
REDACTED = "[redacted]"

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


# Numbers that are no card, id or account however they are read: dates, times, key
# fingerprints, hex digests, UUIDs, algorithm names ("rsa4096", "sha256"), money and shares.
_OTHER_NUMBERS = re.compile(
    r"\b(?:19|20)\d\d[\-./](?:0?[1-9]|1[0-2])[\-./](?:0?[1-9]|[12]\d|3[01])\b"
    r"|\b(?:0?[1-9]|[12]\d|3[01])[\-./](?:0?[1-9]|1[0-2])[\-./](?:19|20)?\d\d\b"
    r"|\b(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?\b"
    r"|\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"
    r"|\b(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{32,}\b"
    r"|\b(?=(?:[0-9A-Fa-f]{4}\s+){0,9}[0-9A-Fa-f]{0,3}[A-Fa-f])(?:[0-9A-Fa-f]{4}\s+){7,}[0-9A-Fa-f]{4}\b"
    r"|\b(?:rsa|dsa|ecdsa|ed|sha|md|aes|nistp|secp|x|cv)\d+\b"
    r"|\b0+(?:[\- ]0+)*\b"  # a template's zeros ("sort code 00-00-00")
    # sums of money and shares ("£421.20", "5.5%", "300 EUR", "max £300 a month")
    r"|[£$€¥₹₩]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:%|€|£|(?:eur|usd|gbp|chf|sek|nok|dkk|pln|zł|kr)\b)",
    re.IGNORECASE,
)


_DATE_OR_TIME = re.compile(_OTHER_NUMBERS.pattern.split("|\\b[0-9a-fA-F]{8}")[0], re.IGNORECASE)


def without_dates(text: str) -> str:
    """``text`` with its dates and times blanked, each character kept in its place (a date is
    not the number an id's word names: "Licence issued: ... Date of birth: 15.03.1986")."""
    return _DATE_OR_TIME.sub(lambda m: " " * len(m.group()), text)


def id_digits(text: str) -> int:
    """The digits of the text outside numbers that are no card, id or account."""
    return sum(map(str.isdigit, _OTHER_NUMBERS.sub(" ", text)))


HOSPITAL_RECORD = (
    r"(?-i:HN)|门诊号|門診號|病历号|病歷號|住院号|住院號|就诊卡号|就診卡號|診察券番号|カルテ番号|환자\s*번호|병록\s*번호"
    r"|prontu[áa]rio(?:\s+n[º°o]\.?)?|historia\s+cl[íi]nica(?:\s+n[º°o]\.?)?|patientennummer|fallnummer"
    r"|cartella\s+clinica(?:\s+n\.?)?|dossier\s+m[ée]dical(?:\s+n[º°o]\.?)?"
)
# A number labelled right before it as another institution's (hospital, patient, member,
# juror, employee, student, order, invoice, ticket, case, claim, policy numbers).
_NUMBER = re.compile(r"[A-Za-z]{0,3}\d(?:[\d\s\-./]*\d)?")
_INSTITUTION_LABEL = re.compile(
    # (not one's role, "als student:", "as a student", "en tant qu'étudiant": the person's own id follows)
    r"\b(?<!\bals\s)(?<!\bas\s)(?<!\bas\sa\s)(?<!\bcomo\s)(?<!\bjako\s)(?:hospital|patient|mrn|member(?:ship)?|juror|jury|employee|staff|student|pupil|order|invoice|ticket|case"
    r"|claim|policy|booking|reservation|confirmation|tracking|ref(?:erence)?|customer|badge|library|loyalty"
    r"|rechnung|factura|facture|fattura|faktura|fatura|factuur"
    # a contract's, a supply point's ("contract number 0031749288", "Nº de contrato luz 0049281736",
    # "CUPS ES0021...")
    r"|contract|contrat|contrato(?:\s+(?:de\s+)?(?:luz|gas|agua))?|contratto|vertrag\w*|umow[ay]|cups"
    # an account that is not at a bank, as the rules read it ("patient account 00488213")
    r"|(?:patient|hospital|clinic|dental|medical|pharmacy|school|student|tuition|library|gym|club)\s+(?:account|acct))"
    # (a booking's prefix may lead its number: "Booking: EUR-448291")
    r"\s*(?:no\.?|number|num|nr\.?|#|id)?\s*[:#=]?\s*(?:[A-Z]{2,4}-)?$"
    r"|(?:订单号|訂單號|注文番号|주문번호|快递单号|运单号|運単番号|伝票番号|\w*(?:bestell|kunden|rechnungs|auftrags)nummer"
    # a hospital's record in more languages ("HN 6704829", "门诊号 20240418-0073", "prontuário nº
    # 2024/00418", "historia clínica 448213", "Patientennummer", "カルテ番号", "환자번호")
    r"|" + HOSPITAL_RECORD + r")"
    r"\s*[:：]?\s*$",
    re.IGNORECASE,
)


def labelled_as_another_institutions(text: str, at: int) -> bool:
    """Whether the number at ``at`` is labelled right before it as another institution's."""
    return _INSTITUTION_LABEL.search(text, max(0, at - 40), at) is not None


def numbers_of_other_institutions(text: str) -> bool:
    """Whether every number of four digits or more (outside dates, times, digests) is
    labelled right before it as another institution's ("Hospital No. K0092281",
    "invoice no. 2024-5532 account ref 88123456")."""
    masked = _OTHER_NUMBERS.sub(" ", text)
    numbers = [m for m in _NUMBER.finditer(masked) if sum(map(str.isdigit, m.group())) >= 4]
    return bool(numbers) and all(_INSTITUTION_LABEL.search(masked, max(0, m.start() - 40), m.start()) for m in numbers)


@lru_cache(maxsize=8)
def _word_spans(text: str) -> dict[str, list[tuple[int, int]]]:
    spans: dict[str, list[tuple[int, int]]] = {}
    for m in WORDS.finditer(text):
        spans.setdefault(m.group().lower(), []).append(m.span())
    return spans


def word_spans(text: str, wanted: Callable[[str], bool]) -> list[tuple[int, int, str]]:
    """Each word of ``text`` (lower case) that ``wanted`` accepts, with its span, in order.
    The text is split into words once for all the rules that look for their own words
    (three scans of a 10,000-character message became one)."""
    found = [(a, b, w) for w, spans in _word_spans(text).items() if wanted(w) for a, b in spans]
    found.sort()
    return found


@lru_cache(maxsize=8)
def folded(text: str) -> str:
    """``text`` in lower case, with the letters a case-insensitive pattern also reads as "i"
    and "s" (İ, ı, ſ) written so: a word such a pattern needs is in it whenever the pattern
    can match, so a rule can skip a pattern whose word is not there."""
    return text.lower().replace("\u0307", "").replace("ı", "i").replace("ſ", "s")


@lru_cache(maxsize=8)
def folded_words(text: str) -> frozenset[str]:
    """The words of ``text`` as ``folded`` writes them: a pattern that needs one of its own
    words (bounded as a word) cannot match when none of them is here."""
    return frozenset(w.replace("\u0307", "").replace("ı", "i").replace("ſ", "s") for w in _word_spans(text))


# Digits written as one number: single or double spaces, dots, dashes, slashes or a line
# break between them (every number pattern of the rules joins its digits with fewer).
_JOINED_NUMBER = re.compile(r"\d(?:(?: {1,2}|[.\-/]| ?\n)?\d)*")


@lru_cache(maxsize=8)
def longest_number(text: str) -> int:
    """The most digits of one number in ``text`` (see ``_JOINED_NUMBER``): a card needs 12."""
    return max((sum(map(str.isdigit, m)) for m in _JOINED_NUMBER.findall(text)), default=0)


def longest_id_number(text: str) -> int:
    """The most digits of one number outside dates, times, digests, UUIDs and sums of money:
    an account's digits are one number, not a "18 dígitos" and an "A-4471" added up."""
    masked = _OTHER_NUMBERS.sub(" ", text)
    return max((sum(map(str.isdigit, m)) for m in _JOINED_NUMBER.findall(masked)), default=0)
