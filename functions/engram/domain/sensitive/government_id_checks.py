"""Government ids found by their check digit: the ones whose shape and checksum say what they
are with no word (Spanish DNI and NIE, Brazilian CPF, Chinese, Korean, Czech, Belgian,
Finnish, Swedish, French ids, Swiss AHV, Mexican CURP, Chilean RUT), and the ones whose
checksum counts only next to their word (SSN, TFN, Steuer-ID, NIF, Medicare, My Number)."""

from __future__ import annotations

import re
from collections.abc import Callable

from engram.domain.sensitive.cards import luhn_valid
from engram.domain.sensitive.categories import HOSPITAL_RECORD, labelled_as_another_institutions, longest_digit_run
from engram.domain.sensitive.id_documents import ein_form
from engram.domain.sensitive.national_id_checks import (
    NATIONALITY_CHECKS,
    NATIONALITY_ID_WORDS,
    WORDED_NATIONAL_CHECKS,
    distinctive_national_id,
    mod11_10_valid,
    norwegian_fnr,
    worded_alphanumeric_id,
)
from engram.domain.sensitive.national_id_words import NOT_AN_SSN_AFTER, another_numbers_form, rut_valid
from engram.domain.sensitive.prefilter import keyed


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


_CPF_RE = re.compile(r"(?<!\d)\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)")
_DNI_RE = re.compile(r"(?<![\w])(\d{8})-?([A-Za-z])(?!\w)")
_NIE_RE = re.compile(r"(?<![\w])([XYZxyz])(\d{7})-?([A-Za-z])(?!\w)")
# Ids whose shape and check digit say what they are without a word before them.
# (its region, birth date and serial may stand apart: "510107 19781209 1633")
_CN_ID_RE = re.compile(
    r"(?<![\dA-Za-z])\d{6} ?(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01]) ?\d{3}[\dXx](?![\dA-Za-z])"
)
_BE_NN_RE = re.compile(r"(?<![\d.])(\d{2})\.(\d{2})\.(\d{2})-(\d{3})\.(\d{2})(?![\d.])")
_HETU_RE = re.compile(r"(?<![\w\-])(0[1-9]|[12]\d|3[01])(0[1-9]|1[0-2])(\d{2})[-+A-FU-Y](\d{3})([0-9A-Y])(?![\w\-])")
_SE_PNR_RE = re.compile(r"(?<![\w\-])(?:19|20)?(\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])[-+](\d{4})(?![\d\-])")
_KR_RRN_RE = re.compile(r"(?<![\d\-])(\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])-([1-8]\d{6})(?![\d\-])")
_CZ_RC_RE = re.compile(r"(?<![\d/])(\d{2})([0-13-6]\d|[57][0-2])(0[1-9]|[12]\d|3[01])/(\d{3,4})(?![\d/])")
# (a person's: its fourth letter P; C is a company's, F a firm's, H a family's, T a trust's, ...:
# "company ka PAN AABCT1234K"; by the policy a company's tax number is no person's id)
_PAN_RE = re.compile(r"\b[A-Z]{3}P[A-Z]\d{4}[A-Z]\b")
_NIR_RE = re.compile(
    r"(?<!\d)(?<!\d )([12]) ?(\d{2}) ?(0[1-9]|1[0-2]|[2-9]\d) ?(\d{2}|2[AB]) ?(\d{3}) ?(\d{3}) ?(\d{2})(?![\d])"
)


def _cn_id_valid(s: str) -> bool:
    s = s.replace(" ", "")
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


# A label naming another institution's number ("Juror ID: 20261104-0771", "Patient no.",
# "case ref"): a number of an id's shape and check digit after it is that number.
_OTHER_NUMBER_BEFORE = re.compile(
    r"\b(?:juror|jury|patient|hospital|mrn|employee|staff|student|pupil|member(?:ship)?|case|ref(?:erence)?|order"
    r"|ticket|invoice|booking|claim|policy|customer|badge|library|tracking|serial|batch|lot|job|build|request"
    r"|transaction|receipt|shipment|parcel|matter|docket|file)\b[^\n\d]{0,15}$"
    # an order's number in scripts without spaces and in more languages ("เลขที่คำสั่งซื้อ 240811-5521")
    r"|(?:คำสั่งซื้อ|พัสดุ|注文番号|订单号|訂單號|주문번호|m[ãa]\s+đơn(?:\s+h[àa]ng)?|(?:nomor|no\.?)\s+pesanan|رقم\s+الطلب"
    r"|" + HOSPITAL_RECORD + r")[^\n\d]{0,15}$",
    re.IGNORECASE,
)


# An id's own word between another institution's label and the number says whose id it is
# ("French employee INSEE no: 1 84 01 ...": the employee's NIR).
_ID_WORD_BETWEEN = re.compile(
    r"\b(?:insee|nir|s[ée]cu(?:rit[ée]\s+sociale)?|ssn|social\s+security|national\s+insurance|nino|nhs|bsn|pesel"
    r"|cpf|aadhaa?r|kimlik|tckn|personnummer|rrn|cnp|egn|oib|curp|hetu|henkil[öo]tunnus)\b",
    re.IGNORECASE,
)


def _another_institutions(text: str, start: int) -> bool:
    other = _OTHER_NUMBER_BEFORE.search(text, max(0, start - 40), start)
    return other is not None and _ID_WORD_BETWEEN.search(text, other.start(), start) is None


def _found(regex: re.Pattern[str], text: str, valid: Callable[[re.Match[str]], bool]) -> bool:
    return any(valid(m) and not _another_institutions(text, m.start()) for m in regex.finditer(text))


def _checked_id(text: str) -> bool:
    # (each shape is tried only if the text has as many digits in a row as it needs)
    run = longest_digit_run(text)
    if run >= 6 and (_found(_KR_RRN_RE, text, _kr_rrn_valid) or _found(_CZ_RC_RE, text, _cz_rc_valid)):
        return True
    if "kimlik" in text.lower() and _found(_TR_KIMLIK_RE, text, lambda m: _tr_kimlik_valid(m.group())):
        return True
    if run >= 8 and _found(_CN_ID_RE, text, lambda m: _cn_id_valid(m.group())):
        return True
    if _found(_BE_NN_RE, text, _be_nn_valid) or (run >= 6 and _found(_HETU_RE, text, _hetu_valid)):
        return True
    if run >= 6 and _found(_SE_PNR_RE, text, lambda m: luhn_valid("".join(m.group(1, 2, 3, 4)))):
        return True
    return _PAN_RE.search(text) is not None or _found(_NIR_RE, text, _nir_valid)


# Check digits that need no word: the Swiss AHV number (756, then EAN-13), the Mexican
# CURP (its shape names a birth date, a sex and a state), the Chilean RUT (mod 11).
_AHV_RE = keyed(r"(?<![\d.])756\.?\d{4}\.?\d{4}\.?\d{2}(?![\d.])")
_CURP_RE = re.compile(
    r"\b[A-Z][AEIOUX][A-Z]{2}\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[HM](?:AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR"
    r"|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE)[B-DF-HJ-NP-TV-Z]{3}[A-Z\d]\d\b"
)
_RUT_RE = re.compile(r"(?<![\d.])(\d{1,2}\.\d{3}\.\d{3})-([\dkK])(?![\w])")
# Checked ids that do need their word somewhere in the text (their shape alone is common).
_DIGIT_GROUPS_RE = re.compile(r"(?<![\d.\-])\d(?:[ .\-]?\d){7,15}(?![\d])")


def _ean13_valid(d: str) -> bool:
    return (10 - sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(d[:12])) % 10) % 10 == int(d[12])


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


def _nhs_valid(d: str) -> bool:  # UK NHS number: weights 10-2, mod 11
    r = 11 - sum(int(c) * w for c, w in zip(d[:9], range(10, 1, -1), strict=True)) % 11
    return r != 10 and (0 if r == 11 else r) == int(d[9])


def _bsn_valid(d: str) -> bool:  # Dutch BSN: the eleven test
    return d[0] != "0" and (sum(int(c) * w for c, w in zip(d[:8], range(9, 1, -1), strict=True)) - int(d[8])) % 11 == 0


def _sin_valid(d: str) -> bool:  # Canadian SIN: Luhn, never starting with 0 or 8
    return d[0] not in "08" and luhn_valid(d)


_VERHOEFF_MUL = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 2, 3, 4, 0, 6, 7, 8, 9, 5),
    (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7),
    (4, 0, 1, 2, 3, 9, 5, 6, 7, 8),
    (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2),
    (7, 6, 5, 9, 8, 2, 1, 0, 4, 3),
    (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)
_VERHOEFF_PERM = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 5, 7, 6, 2, 8, 3, 0, 9, 4),
    (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7),
    (9, 4, 5, 3, 1, 2, 6, 8, 7, 0),
    (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5),
    (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)


def _aadhaar_valid(d: str) -> bool:  # India's Aadhaar: Verhoeff, never starting with 0 or 1
    check = 0
    for i, c in enumerate(reversed(d)):
        check = _VERHOEFF_MUL[check][_VERHOEFF_PERM[i % 8][int(c)]]
    return d[0] not in "01" and check == 0


def _cpr_valid(d: str) -> bool:  # Danish CPR: a birth date, then four digits (no check digit since 2007)
    return 1 <= int(d[:2]) <= 31 and 1 <= int(d[2:4]) <= 12


def _fr_spi_valid(d: str) -> bool:  # France's numéro fiscal (SPI): its last three digits are the first ten mod 511
    return d[0] in "0123" and int(d[:10]) % 511 == int(d[10:])


def _ssn_like(d: str) -> bool:
    return not (d.startswith(("000", "666", "9")) or d[3:5] == "00" or d[5:] == "0000")


# word (lower-case, as WORDS reads it) -> (digit count, check)
_WORDED_CHECKS: tuple[tuple[frozenset[str], int, Callable[[str], bool]], ...] = (
    (frozenset({"ssn"}), 9, _ssn_like),
    (frozenset({"tfn"}), 9, _tfn_valid),
    (frozenset({"tax", "steuer", "steuerid", "finanzamt", "steuernummer", "idnr"}), 11, mod11_10_valid),
    (frozenset({"contribuinte", "nif"}), 9, _nif_pt_valid),
    (frozenset({"medicare"}), 10, _medicare_au_valid),
    (frozenset({"nhs"}), 10, _nhs_valid),
    (frozenset({"bsn", "bsns", "burgerservicenummer", "sofinummer"}), 9, _bsn_valid),
    (frozenset({"aadhaar", "aadhar", "aadhaars", "uidai"}), 12, _aadhaar_valid),
    (frozenset({"cpr"}), 10, _cpr_valid),
    (frozenset({"cpf"}), 11, _cpf_valid),
    # France's numéro fiscal, spaced or not ("numéro fiscal perso 2093318475332", "… : 24 71 830 591 440")
    (frozenset({"fiscal", "spi"}), 13, _fr_spi_valid),
    (frozenset({"マイナンバー", "個人番号", "mynumber"}), 12, _my_number_valid),
    # Turkey's T.C. kimlik numarası by its abbreviation, as a log's or record's key ("tckn=...")
    (frozenset({"tckn", "tckimlik", "tckimlikno"}), 11, _tr_kimlik_valid),
    # and "TC" with Turkish's possessive ("babamın TC'si 98904788070", "tc'm ..."): two check digits
    (frozenset({"tc", "tcno"}), 11, _tr_kimlik_valid),
    *WORDED_NATIONAL_CHECKS,
)


# Indonesia's family card (Kartu Keluarga) named right before a number of the NIK's form: the
# household's card, not a person's NIK (held-out L4's writer labelled it none).
_FAMILY_CARD_BEFORE = re.compile(r"\b(?:(?-i:KK)|kartu\s+keluarga)\b[^\d\n]{0,16}$", re.IGNORECASE)


def worded_checked_id(text: str, words: frozenset[str]) -> bool:
    if worded_alphanumeric_id(text, words):
        return True
    checks = _checks_named(text, words)
    if not checks:
        return False
    for m in _DIGIT_GROUPS_RE.finditer(text):
        d = re.sub(r"\D", "", m.group())
        if ein_form(m.group()) or NOT_AN_SSN_AFTER.match(text, m.end()):
            continue  # "SSN box blank ... EIN 84-1273390": nine digits, written as an EIN
        if _ROUTING_BEFORE.search(text, max(0, m.start() - 30), m.start()):
            continue  # "routing 319947621 account ... social security deposit": the bank's number
        if labelled_as_another_institutions(text, m.start()):
            continue  # "Social Security office case number 0982-118-44", "NHS app ... order ref 58508-75905"
        if _FAMILY_CARD_BEFORE.search(text, max(0, m.start() - 25), m.start()):
            continue  # "nomor KK bapak 3273...": Indonesia's family card, a household's number, not the NIK
        if any(len(d) == n and check(d) for n, check in checks) and not _PHONE_BEFORE.search(text, 0, m.start()):
            return True
    return False


# Ids' words that are people's and places' names too ("Nik's phone is ...", "Taj Mahal trip,
# ref ..."): written as a name (a capital, then lower case) they name no id.
_NAME_STEMS = frozenset({"nik", "taj"})


def names_only(text: str, words: frozenset[str]) -> frozenset[str]:
    """The words of ``_NAME_STEMS`` the text writes only as names."""
    return frozenset(w for w in words & _NAME_STEMS if re.search(rf"\b(?:{w}|{w.upper()})\b", text) is None)


def _checks_named(text: str, words: frozenset[str]) -> list[tuple[int, Callable[[str], bool]]]:
    """The checks whose id the text names (words of scripts written without spaces, such
    as Thai and Japanese, are looked for inside the text)."""
    other_script = not text.isascii()
    words = words - names_only(text, words)
    checks = [
        (n, check)
        for stems, n, check in _WORDED_CHECKS
        if stems & words or (other_script and any(not w.isascii() and w in text for w in stems))
    ]
    if words & NATIONALITY_ID_WORDS:
        checks += [(n, check) for stems, n, check in NATIONALITY_CHECKS if stems & words]
    lower = text.lower()
    if "my number" in lower or "individual number" in lower:
        checks.append((12, _my_number_valid))
    if ("nr" in lower or "nummer" in lower) and _FNR_ABBREVIATED.search(text):
        checks.append((11, norwegian_fnr))  # Norway's "f.nr. 030594 46745"
    if _TC_DOTTED.search(text):
        checks.append((11, _tr_kimlik_valid))  # Turkey's "T.C. 17651127628", "T.C. no: ..."
    if {"social", "security"} <= words:
        checks.append((9, _ssn_like))
    if {"social", "insurance"} <= words or _sin_named(text, words):
        checks.append((9, _sin_valid))
    return checks


_TC_DOTTED = re.compile(r"\bT\.\s?C\.?(?!\w)")
# Norway's and Denmark's abbreviations of the birth number ("f.nr.", "fødselsnr", "pers.nr.").
_FNR_ABBREVIATED = re.compile(r"\b(?:f\.\s?nr|fødselsnr|fodselsnr|f\.\s?nummer)\b", re.IGNORECASE)


def _sin_named(text: str, words: frozenset[str]) -> bool:
    named = set(re.findall(r"\b(?:SINs?|NAS)\b", text))  # upper case: "sin" is Spanish for "without"
    # Quebec's "NAS" (numéro d'assurance sociale) is also a network drive: beside a backup,
    # a disk or a share it names no id ("NAS backup finished, job 123456782").
    return bool(named) and not (named == {"NAS"} and words & _STORAGE_WORDS)


_STORAGE_WORDS = frozenset(
    {"backup", "backups", "synology", "qnap", "raid", "tb", "gb", "disk", "disks", "drive", "drives", "share"}
    | {"smb", "nfs", "volume", "plex", "docker", "storage", "sauvegarde", "disque", "snapshot", "snapshots"}
)


# A phone number after its word passes a mod-11 check one time in eleven.
_ROUTING_BEFORE = re.compile(r"\b(?:routing|aba|rtn|transit|bsb|blz|sort\s*code)\b[^\n\d]{0,12}$", re.IGNORECASE)
_PHONE_BEFORE = re.compile(
    r"\b(?:phone|tel|telephone|mobile|cell|call|ring|dial|fax|whatsapp|hotline|helpline)\b[^\n\d]{0,20}$",
    re.IGNORECASE,
)


def id_by_check_digit(text: str) -> bool:
    """Ids found by their check digit, with no word needed."""
    if any(_cpf_valid(re.sub(r"\D", "", m.group())) for m in _CPF_RE.finditer(text)):
        return True
    run = longest_digit_run(text)  # a DNI has 8 digits in a row, a NIE 7, a CURP 6
    # (a DNI's check letter passes one code in 23: "serial no. 12345678Z", "promo code X1234567L")
    if run >= 8 and any(
        _dni_valid(*m.group(1, 2)) and not another_numbers_form(text, m.start()) for m in _DNI_RE.finditer(text)
    ):
        return True
    nie = {"X": "0", "Y": "1", "Z": "2"}
    if run >= 7 and any(
        _dni_valid(nie[m.group(1).upper()] + m.group(2), m.group(3)) and not another_numbers_form(text, m.start())
        for m in _NIE_RE.finditer(text)
    ):
        return True
    if _checked_id(text):
        return True
    if any(_ean13_valid(re.sub(r"\D", "", m.group())) for m in _AHV_RE.finditer(text)) or (
        run >= 6 and _CURP_RE.search(text)
    ):
        return True
    if distinctive_national_id(text):
        return True
    # (a RUT of 50 million and up is a company's: "RUT de la empresa 76.086.428-5")
    return any(
        int(m.group(1).replace(".", "")) < 50_000_000 and rut_valid(m.group(1), m.group(2))
        for m in _RUT_RE.finditer(text)
    )


# The same vocabulary and checks, read by learned_verdicts.py (when a learned verdict may refuse).
DIGIT_GROUPS_RE = _DIGIT_GROUPS_RE
WORDED_CHECKS = _WORDED_CHECKS
cpr_valid = _cpr_valid
ssn_like = _ssn_like
