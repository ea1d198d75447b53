"""Government ids: SSNs and other ids by their written form, and any id-like value after a
word that names an id (passport, driving licence, tax, national and social-security
numbers, in many languages); checksummed ids are in ``government_id_checks``."""

from __future__ import annotations

import re

from engram.domain.sensitive.cards import NOT_A_CARD_BEFORE
from engram.domain.sensitive.government_id_checks import id_by_check_digit, worded_checked_id

# -- government ids ------------------------------------------------------------------------------
_SSN_RE = re.compile(r"(?<![\d\-.])(?!000|666)\d{3}([ \-.])(?!00)\d{2}\1(?!0000)\d{4}(?![\d])(?![\-/]\w)")
_BARE_SSN_RE = re.compile(r"\s*(?!000|666|9)\d{3}(?!00)\d{2}(?!0000)\d{4}\s*")
_UK_NINO_RE = re.compile(r"\b(?!BG|GB|NK|KN|TN|NT|ZZ)(?![DFIQUV])[A-Z](?![DFIOQUV])[A-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b")
_UK_DRIVING_RE = re.compile(r"\b[A-Z9]{5}\d{6}[A-Z9]{2}\d[A-Z]{2}\b")
_CODICE_FISCALE_RE = re.compile(r"\b[A-Z]{6}\d{2}[A-EHLMPRST]\d{2}[A-Z]\d{3}[A-Z]\b")
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
        *(
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
        ),
        *("identifikationsnummer", "idnr", "ssn", "ss", "social", "itin", "ein", "tin", "tax", "steuer"),
        *("steuernummer", "taxpayer", "unique", "utr", "tfn", "employer", "passport", "reisepass", "pass"),
        *("driver", "drivers", "driving", "dl", "licence", "license", "lic", "national", "ni", "nino", "id"),
        *("identity", "sin", "aadhaar", "aadhar", "pan", "personnummer", "personal", "bsn", "burgerservicenummer"),
        *("cpf", "dni", "nie", "nif", "codice", "nir", "carte", "medicare", "nhs", "curp", "rfc", "pesel", "hetu"),
        *("cnp", "oib", "egn", "assurance", "numéro", "numero", "sécurité", "securite", "henkilötunnus"),
        *("henkilotunnus", "fødselsnummer", "fodselsnummer", "rijksregisternummer", "registre"),
        *("steueridentifikationsnummer", "sozialversicherungsnummer", "rentenversicherungsnummer", "svnr"),
        *("passeport", "reisepassnummer", "pasaporte", "passaporto", "paspoort", "paszport", "führerschein"),
        *(
            "führerscheinnummer",
            "fuhrerschein",
            "permis",
            "carnet",
            "licencia",
            "rijbewijs",
            "身份证号",
            "身份证",
            "身份證",
        ),
        *("resident", "nip", "personalausweis", "personalausweisnummer", "ausweisnummer", "documento", "carta"),
        *("dowód",),
    ]
)


def _id_like(token: str) -> bool:
    compact = re.sub(r"[\s\-./]", "", token)
    digits = sum(c.isdigit() for c in compact)
    letters = sum(c.isalpha() for c in compact)
    if digits >= 6:
        return True
    return letters >= 1 and digits >= 2 and len(compact) >= 6 and len(compact) <= 20


def has_government_id(text: str, words: frozenset[str]) -> bool:
    if _id_by_format(text) or id_by_check_digit(text) or worded_checked_id(text, words):
        return True
    if "dni" in words and re.search(r"(?<![\d.])\d{2}\.\d{3}\.\d{3}(?![\d.])", text):
        return True  # an Argentine DNI, written with dots
    if not words & _ID_STEMS:
        return False
    return any(_id_like(m.group("id")) for m in _ID_CONTEXT_RE.finditer(text))


def _id_by_format(text: str) -> bool:
    """Ids whose written form alone says what they are (an SSN's dashes, a UK NINO, ...)."""
    if any(not NOT_A_CARD_BEFORE.search(text[: m.start()]) for m in _SSN_RE.finditer(text)):
        return True
    if _BARE_SSN_RE.fullmatch(text):
        return True
    return bool(_UK_NINO_RE.search(text) or _UK_DRIVING_RE.search(text) or _CODICE_FISCALE_RE.search(text))
