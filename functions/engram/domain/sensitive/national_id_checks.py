"""More countries' national ids by check digit: the ones counted only with their word
somewhere in the text (PESEL, CNP, EGN, OIB, AMKA, kennitala, Norwegian fødselsnummer,
Estonian and Lithuanian personal codes, Latvian personas kods, Israeli teudat zehut, Irish
PPSN, Taiwanese id, Austrian SVNR, Argentine CUIL/CUIT, Hungarian TAJ, JMBG/EMŠO, Thai id,
SNILS, South African id, Saudi id and iqama, Indonesian NIK), and the ones whose written
form is distinctive enough to need no word (Hong Kong id with its bracketed check digit,
Singapore NRIC/FIN, Malaysian MyKad, Emirates id, Ghana card, Thai id and SNILS written in
their groups). The Pakistani CNIC, which has no check digit, needs a word."""

from __future__ import annotations

import re
from collections.abc import Callable

from engram.domain.sensitive.cards import luhn_valid


def _digits(d: str) -> list[int]:
    return [int(c) for c in d]


def _weighted(d: str, weights: tuple[int, ...]) -> int:
    return sum(int(c) * w for c, w in zip(d, weights, strict=False))


def _date_ok(day: int, month: int) -> bool:
    return 1 <= day <= 31 and 1 <= month <= 12


def mod11_10_valid(d: str) -> bool:
    """ISO 7064 MOD 11,10: the German Steuer-ID and the Croatian OIB."""
    product = 10
    for c in d[:-1]:
        total = (int(c) + product) % 10 or 10
        product = (total * 2) % 11
    return (11 - product) % 10 == int(d[-1])


def _pesel(d: str) -> bool:  # YYMMDD with the century in the month (+80, +0, +20, +40, +60)
    month = int(d[2:4])
    return (10 - _weighted(d, (1, 3, 7, 9, 1, 3, 7, 9, 1, 3)) % 10) % 10 == int(d[10]) and _date_ok(
        int(d[4:6]), month % 20
    )


def _cnp(d: str) -> bool:  # sex and century, YYMMDD, county (01-48, 51, 52, 70, 80-83), serial, check
    r = _weighted(d, (2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9)) % 11
    county = int(d[7:9])
    known = 1 <= county <= 48 or county in (51, 52, 70, 80, 81, 82, 83)
    return d[0] != "0" and (1 if r == 10 else r) == int(d[12]) and known and _date_ok(int(d[5:7]), int(d[3:5]))


def _egn(d: str) -> bool:
    r = _weighted(d, (2, 4, 8, 5, 10, 9, 7, 3, 6)) % 11
    return (0 if r == 10 else r) == int(d[9]) and int(d[2:4]) < 60 and _date_ok(int(d[4:6]), int(d[2:4]) % 20)


def _amka(d: str) -> bool:
    return luhn_valid(d) and _date_ok(int(d[:2]), int(d[2:4]))


def _kennitala(d: str) -> bool:
    r = 11 - _weighted(d, (3, 2, 7, 6, 5, 4, 3, 2)) % 11
    century = d[9] in "09"  # 9 for the 1900s, 0 for the 2000s
    # a company's kennitala has 40 added to its day: a company's number is no person's id
    # ("kennitala fyrirtækis 540169-6249 (ehf.)")
    day = int(d[:2])
    return century and r != 10 and (0 if r == 11 else r) == int(d[8]) and _date_ok(day, int(d[2:4]))


def _norwegian_fnr(d: str) -> bool:
    for n, weights in ((9, (3, 7, 6, 1, 8, 9, 4, 5, 2)), (10, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2))):
        r = 11 - _weighted(d[:n], weights) % 11
        if r == 10 or (0 if r == 11 else r) != int(d[n]):
            return False
    return _date_ok(int(d[:2]) % 40, int(d[2:4]) % 40)


def _baltic_code(d: str) -> bool:  # Estonian isikukood, Lithuanian asmens kodas
    r = _weighted(d, (1, 2, 3, 4, 5, 6, 7, 8, 9, 1)) % 11
    if r == 10:
        r = _weighted(d, (3, 4, 5, 6, 7, 8, 9, 1, 2, 3)) % 11 % 10
    return d[0] in "123456" and r == int(d[10]) and _date_ok(int(d[5:7]), int(d[3:5]))


def _latvian_code(d: str) -> bool:
    if d.startswith("32"):
        return True  # since 2017 a random number after 32, with no check digit
    return (1101 - _weighted(d, (1, 6, 3, 7, 9, 10, 5, 8, 4, 2))) % 11 % 10 == int(d[10]) and _date_ok(
        int(d[:2]), int(d[2:4])
    )


def norwegian_fnr(d: str) -> bool:
    """Norway's fødselsnummer by its date and its two check digits (read by its abbreviations)."""
    return _norwegian_fnr(d)


def _israeli_id(d: str) -> bool:
    return luhn_valid(d) and d != "000000000"


def _svnr(d: str) -> bool:  # Austria: serial, check digit, birth date DDMMYY
    r = _weighted(d, (3, 7, 9, 0, 5, 8, 4, 2, 1, 6)) % 11
    return r != 10 and r == int(d[3]) and _date_ok(int(d[4:6]), int(d[6:8]))


def _cuil(d: str) -> bool:
    # a person's prefixes only: a CUIT of 30, 33 or 34 is a company's ("CUIT de la empresa")
    r = 11 - _weighted(d, (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)) % 11
    return d[:2] in {"20", "23", "24", "27"} and {11: 0, 10: 9}.get(r, r) == int(d[10])


def _se_pnr(d: str) -> bool:  # Sweden: YYMMDD (a coordination number's day + 60), serial, Luhn
    return luhn_valid(d) and _date_ok(int(d[4:6]) % 60, int(d[2:4]))


def _taj(d: str) -> bool:
    return _weighted(d, (3, 7, 3, 7, 3, 7, 3, 7)) % 10 == int(d[8])


def _jmbg(d: str) -> bool:  # Yugoslav JMBG and Slovenian EMŠO: DDMMYYY, region, serial, check
    m = 11 - _weighted(d, (7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2)) % 11
    return (0 if m > 9 else m) == int(d[12]) and _date_ok(int(d[:2]), int(d[2:4]))


def _thai_id(d: str) -> bool:
    return d[0] not in "09" and (11 - _weighted(d, tuple(range(13, 1, -1))) % 11) % 10 == int(d[12])


def _snils(d: str) -> bool:
    s = _weighted(d, tuple(range(9, 0, -1)))
    return (s % 101 % 100) == int(d[9:]) and d[:9] != "000000000"


def _za_id(d: str) -> bool:  # South Africa: YYMMDD, serial, citizenship (0/1), 8/9, Luhn
    return luhn_valid(d) and _date_ok(int(d[4:6]), int(d[2:4])) and d[10] in "01"


def _saudi_id(d: str) -> bool:  # citizens start with 1, residents (iqama) with 2
    return d[0] in "12" and luhn_valid(d)


def _tr_kimlik(d: str) -> bool:  # Turkey: two check digits
    n = _digits(d)
    return d[0] != "0" and (sum(n[0:9:2]) * 7 - sum(n[1:8:2])) % 10 == n[9] and sum(n[:10]) % 10 == n[10]


def _inn_person(d: str) -> bool:  # Russia's INN of a person: twelve digits, two check digits
    n = _digits(d)
    first = _weighted(d, (7, 2, 4, 10, 3, 5, 9, 4, 6, 8)) % 11 % 10
    return first == n[10] and _weighted(d, (3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8)) % 11 % 10 == n[11]


def _nik(d: str) -> bool:  # Indonesia: region, then DDMMYY (a woman's day + 40), serial
    return _date_ok(int(d[6:8]) % 40, int(d[8:10])) and d[:2] != "00"


def iran_id_valid(d: str) -> bool:  # Iran's کد ملی: nine digits weighted 10 down to 2, mod 11
    r = _weighted(d, (10, 9, 8, 7, 6, 5, 4, 3, 2)) % 11
    return len(set(d)) > 1 and int(d[9]) == (r if r < 2 else 11 - r)


def _kr_rrn(d: str) -> bool:  # Korea's resident number without its dash: YYMMDD, sex, serial, check
    return (
        _date_ok(int(d[4:6]), int(d[2:4]))
        and d[6] in "12345678"
        and (11 - _weighted(d, (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)) % 11) % 10 == int(d[12])
    )


def _unzr(d: str) -> bool:  # Ukraine's УНЗР: YYYYMMDD, a serial, a check digit (weights 7, 3, 1)
    return _date_ok(int(d[6:8]), int(d[4:6])) and _weighted(d, (7, 3, 1) * 4) % 10 == int(d[12])


def _cccd(d: str) -> bool:  # Vietnam's citizen id: a province (001-096), century and sex, the year
    return 1 <= int(d[:3]) <= 96 and d[3] in "0123"


# word (lower-case, as the word splitter reads it) -> (digit count, check)
WORDED_NATIONAL_CHECKS: tuple[tuple[frozenset[str], int, Callable[[str], bool]], ...] = (
    (frozenset({"pesel", "peselu", "peselem"}), 11, _pesel),
    (frozenset({"cnp", "cnp-ul", "cnpul"}), 13, _cnp),
    (frozenset({"egn", "егн"}), 10, _egn),
    (frozenset({"oib", "oiba"}), 11, mod11_10_valid),
    (frozenset({"amka", "αμκα"}), 11, _amka),
    (frozenset({"kennitala", "kennitölu", "kennitalan"}), 10, _kennitala),  # (not "kt": knots)
    (frozenset({"fødselsnummer", "fodselsnummer", "fødselsnummeret", "fnr", "personnummer"}), 11, _norwegian_fnr),
    (frozenset({"isikukood", "isikukoodi", "asmens", "kodas"}), 11, _baltic_code),
    (frozenset({"personas", "kods"}), 11, _latvian_code),
    # (and its abbreviation, ת"ז: "ת"ז של הבן לרישום לבית הספר: 312984057")
    (frozenset({"teudat", "zehut", "תעודת", "זהות", 'ת"ז', "ת״ז", "ת.ז"}), 9, _israeli_id),
    (frozenset({"svnr", "sozialversicherungsnummer", "versicherungsnummer"}), 10, _svnr),
    (frozenset({"cuil", "cuit"}), 11, _cuil),
    (frozenset({"taj"}), 9, _taj),
    (frozenset({"jmbg", "emšo", "emso", "матични", "јмбг"}), 13, _jmbg),
    # (and "the card's number", PromptPay tied to the id, the taxpayer's number: a person's
    # Thai tax id is the id itself)
    (frozenset({"บัตรประชาชน", "ประจำตัวประชาชน", "เลขบัตร", "พร้อมเพย์", "ผู้เสียภาษี"}), 13, _thai_id),
    (frozenset({"snils", "снилс"}), 11, _snils),
    (frozenset({"identity", "id", "rsa", "african"}), 13, _za_id),  # (not "sa": Tagalog's "at, to")
    # ... and in Zulu, Xhosa and Afrikaans ("inombolo kamazisi", "yesazisi", "identiteitsnommer")
    (frozenset({"umazisi", "kamazisi", "wamazisi", "isazisi", "yesazisi", "sazisi", "identiteitsnommer"}), 13, _za_id),
    # Russia's INN of a person (a company's has ten digits)
    (frozenset({"инн", "inn"}), 12, _inn_person),
    # (and in Arabizi: "ra2m el hawiya 1051938627")
    (
        frozenset({"iqama", "هوية", "الإقامة", "اقامة", "إقامة", "hawiya", "hawiyya", "hawiyti", "hawiyet"}),
        10,
        _saudi_id,
    ),
    # Iran's national code, in Persian and romanised ("code melli", "kod meli"), Korea's resident
    # number and Vietnam's citizen id written without their dashes or accents, Ukraine's УНЗР
    (frozenset({"ملی", "ملي", "melli", "meli", "codemelli", "کدملی"}), 10, iran_id_valid),
    (frozenset({"주민등록번호", "주민번호", "주민등록"}), 13, _kr_rrn),
    (frozenset({"cccd", "cuoc", "cước", "cmnd"}), 12, _cccd),
    (frozenset({"унзр", "unzr"}), 13, _unzr),
    (frozenset({"nik", "ktp", "ektp", "kependudukan"}), 16, _nik),
    # Sweden's personnummer without its dash, of ten digits or twelve (with the century)
    (frozenset({"personnummer", "personnr", "personalnumber"}), 10, _se_pnr),
    (frozenset({"personnummer", "personnr", "personalnumber"}), 12, lambda d: d[:2] in ("19", "20") and _se_pnr(d[2:])),
)

# A nationality alone names no id ("our Thai restaurant booking 5484811875351", "my Israeli
# friend's landline 03-6589893", "Saudi Airlines booking 2048173609"): one in ten or eleven
# numbers passes these checks, so the nationality counts only beside an id word.
NATIONALITY_CHECKS: tuple[tuple[frozenset[str], int, Callable[[str], bool]], ...] = (
    (frozenset({"thai"}), 13, _thai_id),
    (frozenset({"israeli"}), 9, _israeli_id),
    (frozenset({"saudi"}), 10, _saudi_id),
    (frozenset({"turkish", "türk", "turk"}), 11, _tr_kimlik),
)
NATIONALITY_ID_WORDS = frozenset({"id", "ids", "identity", "national", "citizen"})

# Ids with letters, counted with their word: the Irish PPSN (mod 23 letter) and the
# Taiwanese national id (a letter's code, then weights).
_PPSN_RE = re.compile(r"(?<![\w])(\d{7})([A-W])([ABWTX]?)(?![\w])", re.IGNORECASE)
# (a citizen's second digit is 1 or 2; a resident's new uniform number, since 2021, 8 or 9)
_TW_ID_RE = re.compile(r"([A-Z])(?<!\w.)([1289]\d{8})(?!\w)")
_TW_LETTERS = "ABCDEFGHJKLMNPQRSTUVXYWZIO"  # codes 10 to 35 in this order


def _ppsn(m: re.Match[str]) -> bool:
    total = _weighted(m.group(1), (8, 7, 6, 5, 4, 3, 2))
    second = m.group(3).upper()
    if second and second != "W":
        total += 9 * (ord(second) - 64)
    return "WABCDEFGHIJKLMNOPQRSTUV"[total % 23] == m.group(2).upper()


def _tw_id(m: re.Match[str]) -> bool:
    code = _TW_LETTERS.index(m.group(1)) + 10
    d = m.group(2)
    total = code // 10 + (code % 10) * 9 + _weighted(d[:8], (8, 7, 6, 5, 4, 3, 2, 1)) + int(d[8])
    return total % 10 == 0


# A US Medicare Beneficiary Identifier: eleven characters in fixed places, letters without
# S, L, O, I, B and Z; printed 4-3-4 with dashes it needs no word.
_MBI_LETTER = "[AC-HJKMNP-RT-Y]"
_MBI_RE = re.compile(
    rf"[1-9](?<![\w\-].){_MBI_LETTER}[{_MBI_LETTER[1:-1]}0-9]\d(-?){_MBI_LETTER}[{_MBI_LETTER[1:-1]}0-9]\d\1"
    rf"{_MBI_LETTER}{{2}}\d{{2}}(?![\w\-])"
)


# The Pakistani CNIC has no check digit: its 5-7-1 form alone is any serial's or shipment's
# ("shipment 10133-4081161-3"), so it needs a word of its own or of an id card.
_CNIC_RE = re.compile(r"[1-7](?<![\d\-].)\d{4}-\d{7}-\d(?![\d\-])")
_CNIC_WORDS = frozenset(
    {"cnic", "nicop", "nic", "nadra", "pakistan", "pakistani", "id", "identity", "شناختی", "قومی", "شناختي"}
)


def worded_alphanumeric_id(text: str, words: frozenset[str]) -> bool:
    if words & _CNIC_WORDS and _CNIC_RE.search(text):
        return True
    if words & {"ppsn", "pps"} and any(_ppsn(m) for m in _PPSN_RE.finditer(text)):
        return True
    if any(m.group(1) or words & {"medicare", "mbi"} for m in _MBI_RE.finditer(text)):
        return True
    # (a resident certificate, 居留證, carries the same form: "居留證號碼: E129374851")
    taiwan = words & {"taiwan", "taiwanese", "roc", "id", "arc", "身分證", "身份證", "統一證號"} or any(
        w in text for w in ("身分證", "居留證", "居留证", "統一證號")
    )
    return bool(taiwan) and any(_tw_id(m) for m in _TW_ID_RE.finditer(text))


# Written forms distinctive enough with their check (or date) to need no word. (Each
# pattern starts with a character, not a look-behind, so the regex engine can skip ahead.)
_HKID_RE = re.compile(r"[0-9](?<![0-9].)[0-9]{5}\(([0-9A])\)")
_HKID_LETTERS = re.compile(r"(?<![A-Za-z0-9])[A-Z]{1,2}$")
# (seven digits first, then the prefix letter before them: a capital is too common a start)
_NRIC_RE = re.compile(r"[0-9](?<![0-9].)[0-9]{6}([A-Z])(?!\w)")
_MYKAD_RE = re.compile(r"([0-9](?<![\d\-].)\d)(\d{2})(\d{2})-(\d{2})-\d{4}(?![\d\-])")
_EMIRATES_RE = re.compile(r"7(?<![\d\-].)84-?\d{4}-?\d{7}-?\d(?![\d\-])")
_GHANA_RE = re.compile(r"GHA-\d{9}-\d\b")
_THAI_GROUPS_RE = re.compile(r"[0-9](?<![\d\-].)-\d{4}-\d{5}-\d{2}-\d(?![\d\-])")
_SNILS_GROUPS_RE = re.compile(r"[0-9](?<![\d\-].)\d{2}-\d{3}-\d{3}[ \-]\d{2}(?![\d\-])")
# Malaysia's place-of-birth codes: states 01-16, 21-59 (old states), abroad 60-68, 71-72, 74-79, 82-93, 98, 99.
_MY_PLACES = frozenset([*range(1, 17), *range(21, 60), *range(60, 69), 71, 72, *range(74, 80), *range(82, 94), 98, 99])


def _hkid(text: str, m: re.Match[str]) -> bool:
    before = _HKID_LETTERS.search(text, max(0, m.start() - 3), m.start())
    if before is None:
        return False
    letters = before.group().rjust(2)
    total = sum((36 if c == " " else ord(c) - 55) * w for c, w in zip(letters, (9, 8), strict=True))
    total += _weighted(m.group()[:6], (7, 6, 5, 4, 3, 2))
    check = (11 - total % 11) % 11
    return ("A" if check == 10 else str(check)) == m.group(1)


def _nric(text: str, m: re.Match[str]) -> bool:
    prefix = text[m.start() - 1 : m.start()]
    if prefix not in ("S", "T", "F", "G") or text[m.start() - 2 : m.start() - 1].isalnum():
        return False
    total = _weighted(m.group()[:7], (2, 7, 6, 5, 4, 3, 2)) + (4 if prefix in "TG" else 0)
    table = "JZIHGFEDCBA" if prefix in "ST" else "XWUTRQPNMLK"
    return table[total % 11] == m.group(1)


def _mykad(m: re.Match[str]) -> bool:
    return _date_ok(int(m.group(3)), int(m.group(2))) and int(m.group(4)) in _MY_PLACES


# A word that names an identity document, in the languages of the ids below. The HKID's,
# the Emirates id's and the Thai id's checks accept about 1 in 10 random numbers of their
# shape (bench: /tmp/18p/random_ids.py, in the 18p note), so those need such a word too; an
# Emirates id may instead show a birth year in its second group (784-1987-...), as all do.
_NAMES_AN_ID = re.compile(
    r"\b(?:ids?|identity|identification|national|citizen\w*|cards?|hkid|hong\s+kong|hk|emirates|eid|uae|resident"
    r"|residency|thai|thailand|nric|fin|dubai|abu\s+dhabi|kimlik|dni|passport|visa|kyc)\b"
    r"|身份|บัตร|ประชาชน|هوي[ةه]|الهوية|إماراتية",
    re.IGNORECASE,
)


def _emirates(text: str, m: re.Match[str]) -> bool:
    d = re.sub(r"\D", "", m.group())
    return luhn_valid(d) and (1900 <= int(d[3:7]) <= 2030 or _NAMES_AN_ID.search(text) is not None)


def distinctive_national_id(text: str) -> bool:
    if "(" in text and any(_hkid(text, m) for m in _HKID_RE.finditer(text)) and _NAMES_AN_ID.search(text):
        return True
    if any(_nric(text, m) for m in _NRIC_RE.finditer(text)) or any(_mykad(m) for m in _MYKAD_RE.finditer(text)):
        return True
    if any(_emirates(text, m) for m in _EMIRATES_RE.finditer(text)):
        return True
    if _GHANA_RE.search(text):
        return True
    if any(_thai_id(re.sub(r"\D", "", m.group())) for m in _THAI_GROUPS_RE.finditer(text)) and _NAMES_AN_ID.search(
        text
    ):
        return True
    return any(_snils(re.sub(r"\D", "", m.group())) for m in _SNILS_GROUPS_RE.finditer(text))
