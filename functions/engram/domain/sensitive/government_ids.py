"""Government ids: SSNs and other ids by their written form, and any id-like value after a
word that names an id (passport, driving licence, tax, national and social-security
numbers, in many languages); checksummed ids are in ``government_id_checks``."""

from __future__ import annotations

import re

from engram.domain.sensitive.cards import names_a_payment_card
from engram.domain.sensitive.categories import WORDS, folded_words, word_spans
from engram.domain.sensitive.government_id_checks import id_by_check_digit, names_only, worded_checked_id
from engram.domain.sensitive.id_documents import (
    another_things_number,
    another_things_number_named,
    employers_ein,
    listed_document_number,
    named_as_another_things,
    not_the_ids_number,
    persons_ein,
    software_licence,
    trade_or_sports_licence,
)
from engram.domain.sensitive.id_formats import id_by_format
from engram.domain.sensitive.id_forms import id_form_in_its_sentence
from engram.domain.sensitive.keys import OTHER_LICENCES
from engram.domain.sensitive.national_id_words import (
    CIVIL_SHAPE,
    COMPANY_ID_WORDS,
    MORE_ID_STEMS,
    MORE_ID_WORDS,
    MORE_KIN,
    NIC_SHAPE,
    NUMBER_OF_AN_APPLICATION_BEFORE,
    PASSPORT_NATIONALITY_RE,
    PASSPORT_WORDS,
    SCRIPT_ID_RE,
    SHAPE_BEFORE,
    companys_form,
    in_another_script,
    names_a_company,
    persons_tax_number,
    printed_id_beside_its_word,
    russian_passport,
    script_id_value,
)
from engram.domain.sensitive.organisations import organisations_number, organisations_numbers_only
from engram.domain.sensitive.prefilter import keyed

# -- government ids ------------------------------------------------------------------------------
_ID_WORDS = (
    r"ssn|ss\s*#|ss\s+(?:number|no)|social(?:\s+security)?(?:\s+(?:number|no|#|sec))?|social\s+sec|soc\.?\s*sec\.?"
    r"|itin|ein|tin|tax\s*(?:payer\s+)?(?:id(?:entification)?|file|reference)(?:\s+number)?|steuer[\s\-]*(?:id|nummer)"
    r"|taxpayer\s+reference|unique\s+taxpayer\s+reference|utr|tfn|employer\s+id(?:entification)?"
    r"|passport|reisepass|pass\s*nr|driver'?s?\s+licen[cs]e|driving\s+licen[cs]e|drivers\s+lic|dl|licen[cs]e|lic"
    r"|national\s+insurance|(?-i:NI)|ni(?=\s+(?:no|number|#))|nino|national\s+id|id\s+card|id\s+(?:number|no)|identity\s+card|sin|social\s+insurance"
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
    # more countries' national, tax, health and travel ids
    r"|cpr(?:[\s\-]?(?:nummer|nr\.?|number|no\.?))?|c[ée]dula(?:\s+de\s+(?:identidad|ciudadan[íi]a))?|nric|hkid|cnic"
    r"|nik|e-?ktp|ktp|cccd|cmnd|c[ăa]n\s+c[ưu][ớo]c(?:\s+c[ôo]ng\s+d[âa]n)?|dowod(?:u|em|zie)(?:\s+osobistego)?|amka"
    r"|afm|jmbg|em[šs]o|isikukood|asmens\s+kodas|personas\s+kods|inn|snils|ppsn?|pps\s+(?:number|no)|ird(?:\s+number)?"
    r"|niss|cuit|cuil|kennitala|szem[ée]lyi\s+sz[áa]m|ad[óo]azonos[íi]t[óo](?:\s+jel)?|taj(?:\s+sz[áa]m)?|paszportu"
    r"|pasaport(?:\s+(?:no|numaras[ıi]))?|paspor|paspoortnummer|passnummer|nss|tessera\s+sanitaria|buletin|mykad"
    r"|kad\s+pengenalan|sss|umid|philhealth(?:\s+(?:id|number|no))?|nomor\s+induk\s+kependudukan"
    # Swahili's, Egypt's (in Latin letters), Azerbaijan's, Indonesia's tax, Bangladesh's and
    # Morocco's ids ("namba ya kitambulisho", "raqam el qawmy", "FİN kodu", "NPWP", "NID", "CIN")
    r"|kitambulisho(?:\s+cha\s+taifa)?|(?-i:NIDA)|(?-i:KRA)\s+pin|raqam\s+el\s+qawm[iy]|f[İi]n\s+kodu|npwp|(?-i:NID|CIN)"
    # fields of a record ("id_number: ...", "passport_no"), and more documents' names
    r"|id[_\s]?(?:number|no|num)|passport[_\s](?:number|no|num)|document[_\s]?(?:number|no)|licen[cs]e[_\s](?:number|no)"
    r"|national[_\s]id|tax[_\s]id|(?:hong\s+kong|hk)\s+id(?:\s+card)?|a-?number|alien\s+(?:registration\s+)?number|uscis"
    r"(?:\s+number)?|green\s+card(?:\s+number)?|passport\s+card|cart[ãa]o\s+de\s+cidad[ãa]o"
    # (not "my number": "my number is 415-555-0132" is a phone; Japan's My Number counts by
    # its check digit, in government_id_checks)
    # driving licences and learner's permits by country (a permit of another kind is no id)
    r"|learner'?s?\s+(?:permit|licen[cs]e)|(?:instruction|driving|driver'?s?|learning|provisional)\s+(?:permit|licen[cs]e)"
    r"|patente(?:\s+di\s+guida)?|rijbewijsnummer|k[öo]rkort(?:s?nummer)?|f[øo]rerkort(?:nummer)?|k[øo]rekort(?:s?nummer)?"
    r"|ajokortti|prawo\s+jazdy|ř[ií]di[čc]sk[ýy]\s+pr[ůu]kaz|vodi[čc]sk[ýy]\s+preukaz|vezet[őo]i\s+enged[ée]ly"
    r"|carta\s+de\s+condu[çc][ãa]o|carteira\s+de\s+(?:motorista|habilita[çc][ãa]o)|(?-i:CNH)|licencia\s+de\s+manejo"
    r"|permiso\s+de\s+conducir|ehliyet|s[üu]r[üu]c[üu]\s+belgesi|surat\s+izin\s+mengemudi|gi[ấa]y\s+ph[ée]p\s+l[áa]i\s+xe"
    r"|gplx|lesen\s+memandu|(?-i:CDL)|dl\s*#|f[üu]hrerscheinnr|dmv(?:\s+customer)?\s+(?:number|no|id)|non-driver\s+id"
    r"|state\s+id(?:\s+card)?"
    # residence permits and cards, public health insurance numbers, voter ids, more tax ids
    # (short acronyms in capitals only: "rg 4471229 ./logs" is ripgrep, "nin" a name)
    r"|(?-i:BRP)|biometric\s+residence\s+permit|residence\s+(?:permit|card)|aufenthaltstitel|aufenthaltserlaubnis"
    r"|titre\s+de\s+s[ée]jour|permesso\s+di\s+soggiorno|permiso\s+de\s+residencia|tarjeta\s+de\s+residencia"
    r"|pr\s+card|permanent\s+resident\s+card|(?-i:UCI)|irp(?:\s+card)?|a#|a-no\.?"
    r"|health\s+card(?:\s+(?:number|no))?|ohip|ramq|carte\s+(?:ramq|soleil)|(?-i:PHN)|personal\s+health\s+number"
    r"|chi\s+(?:number|no)|(?:kranken)?versichertennummer|krankenversicherungsnummer|sv[\-\s]?(?:nummer|nr\.?)"
    r"|(?:sozial|renten)versicherungsnr\.?"
    r"|medicare\s+beneficiary\s+identifier|(?-i:NIN)|clave\s+de\s+elector|credencial\s+para\s+votar|(?-i:INE|IFE)"
    r"|voter\s+id|epic\s+(?:number|no\.?|card)|num[ée]ro\s+fiscal(?:\s+de\s+r[ée]f[ée]rence)?"
    r"|n[úu]mero\s+de\s+identifica[çc][ãa]o\s+fiscal|ausweis(?:nummer|nr)?|emirates\s+id|(?-i:RG)|registro\s+geral"
    r"|assurance\s+maladie|num[ée]ro\s+(?:de\s+)?s[ée]cu|carte\s+vitale|" + MORE_ID_WORDS
)
# What an id word may name instead of the id: the office, its phone line, a photo, a fee.
_NOT_THE_ID_AFTER = (
    r"(?!\s+(?:office|photos?|appointments?|agency|cent(?:re|er)|hotline|helpline|phone|fax|fees?|size|queue|line"
    # an application's or an enrolment's own number ("passport application reference ...",
    # "aadhaar enrolment number ...")
    r"|application|enrol?ment|enrollment|linked|seeded"
    r"|renewal\s+fee|application\s+fee|desk|counter|website|administration|authority|department|ministry|plates?)\b)"
)
_KIN = (
    r"mother|father|mum|mom|dad|wife|husband|son|daughter|partner|madre|padre|hij[oa]|espos[oa]|marido|mujer"
    r"|brother|sister|child|kid|hermano|hermana|bruder|schwester|kind(?:es)?"
    r"|mam[áa]|pap[áa]|frau|mann(?:es)?|mutter|vaters?|sohn(?:es)?|tochter|m[èe]re|p[èe]re|fils|fille|femme|mari|moglie|marito"
    r"|figli[oa]|m[ãa]e|pai|filh[oa]|esposa|mulher|" + MORE_KIN
)
_ID_CONTEXT_RE = re.compile(
    r"\b(?:" + _ID_WORDS + r")\b" + _NOT_THE_ID_AFTER + r"(?:\s*\([^)]{0,20}\))?"
    # whose it is, between the word and the number ("de mi madre", "meiner Frau", "of my wife"),
    # tried first: "ma" must not take the start of "madre"
    r"(?:\s*(?:(?:" + _KIN + r")(?:['’]s)?(?!\w)|his|her|their|our|meiner|meines|meine|mein|seiner|ihrer"
    r"|number|nummer|num[ée]ro|n[úu]mero|numero|num|no\.?|nr\.?|n\.?\s?[°º]\.?|nro\.?|n[úu]m\.|#|is|was|:|=|-|of|my|the|to|est|es|é|è"
    r"|ist|lautet|är|er|jest|mon|ma|mi|meu|minha|il|mio|mia|le|la|de|du|van|mijn|mitt|min|mój|moje|saya|aku|là|số|n\."
    r"|numer|numaram|numarası|nummer|da|do|della|del|è|ko|yangu|ni|ya|(?-i:[A-Z]{2}(?=\s+[A-Z]{0,4}\d))"
    # (Tagalog's "ng", Hausa's "na", Zulu's "ngu-", Azerbaijani's "kodum"; Swahili's "of the
    # new driver", "of the worker" after the id's word: "NSSF ya mfanyakazi 2019384756")
    r"|ng|na|ngu|kodu[mn]?|(?:ya|wa|cha)\s+[^\W\d_]{3,14}(?:\s+mpya)?"
    # (Hungarian's possessives of the id's word: "adóazonosító jelem", "személyi számom")
    r"|jelem|jele|sz[áa]mom|sz[áa]ma"
    r"|card|kartennummer|dokumentennummer|its|it['’]s|,|\)|\(japan\)|a#|[\"'`‘’“”]"
    r"|của|tôi|este|je|yra|ir|és|minu|mano|mans|benim|numaram|nomor|\."
    r"))*\s*"
    # (the id starts a word: "ssn last4 1056" is not "la" then "st4 1056")
    r"(?P<id>(?:(?<![A-Za-z])|(?=\d))(?=[A-Za-z]*\d|[A-Za-z]{1,4}\s\d|[A-Za-z]-\d)[A-Za-z0-9]+(?:[\-./][A-Za-z0-9]+)*(?:\s+\d+){0,6}(?:\s+[A-Za-z](?![A-Za-z]))?)",
    re.IGNORECASE,
)


# The first word of every id phrase: the context regex runs only when one is there.
_ID_STEMS = frozenset(
    [
        *("주민등록번호", "rrn", "t", "tc", "kimlik", "rodné", "rodne", "rč", "codul", "teudat", "uidai"),
        *("steuerliche",),
        *("identifikationsnummer", "idnr", "ssn", "ss", "social", "itin", "ein", "tin", "tax", "steuer"),
        *("steuernummer", "taxpayer", "unique", "utr", "tfn", "employer", "passport", "reisepass", "pass"),
        *("driver", "drivers", "driving", "dl", "licence", "license", "lic", "national", "ni", "nino", "id"),
        *("identity", "sin", "aadhaar", "aadhar", "pan", "personnummer", "personal", "bsn", "burgerservicenummer"),
        *("cpf", "dni", "nie", "nif", "codice", "nir", "carte", "medicare", "nhs", "curp", "rfc", "pesel", "hetu"),
        *("cnp", "oib", "egn", "assurance", "numéro", "numero", "sécurité", "securite", "henkilötunnus"),
        *("henkilotunnus", "fødselsnummer", "fodselsnummer", "rijksregisternummer", "registre"),
        *("steueridentifikationsnummer", "sozialversicherungsnummer", "rentenversicherungsnummer", "svnr"),
        *("sozialversicherungsnr", "rentenversicherungsnr"),
        *("passeport", "reisepassnummer", "pasaporte", "passaporto", "paspoort", "paszport", "führerschein"),
        *("führerscheinnummer", "fuhrerschein", "permis", "carnet", "licencia", "rijbewijs", "身份证号"),
        *("身份证", "身份證"),
        *("resident", "nip", "personalausweis", "personalausweisnummer", "ausweisnummer", "documento", "carta"),
        *("dowód",),
    ]
) | frozenset(
    [
        *("cpr", "cédula", "cedula", "nric", "hkid", "cnic", "nik", "ektp", "ktp", "cccd", "cmnd", "căn", "cước"),
        *("cuoc", "dowodu", "dowodem", "dowodzie", "amka", "afm", "jmbg", "emšo", "emso", "isikukood", "asmens"),
        *("personas", "inn", "snils", "pps", "ppsn", "ird", "niss", "cuit", "cuil", "kennitala", "személyi"),
        *("szemelyi", "adóazonosító", "adoazonosito", "taj", "paszportu", "pasaport", "paspor", "paspoortnummer"),
        *("passnummer", "nss", "tessera", "buletin", "mykad", "kad", "sss", "umid", "philhealth", "nomor"),
        *("hong", "hk", "a", "alien", "uscis", "green", "cartão", "cartao", "document"),
        *("learner", "learners", "instruction", "learning", "provisional", "patente", "rijbewijsnummer", "körkort"),
        *("korkort", "körkortsnummer", "körkortnummer", "korkortsnummer", "førerkort", "forerkort", "førerkortnummer"),
        *("kørekort", "korekort", "kørekortnummer", "kørekortsnummer", "ajokortti", "prawo", "řidičský", "ridicsky"),
        *("vodičský", "vodicsky", "vezetői", "vezetoi", "carteira", "cnh", "permiso", "ehliyet", "sürücü", "surucu"),
        *("surat", "giấy", "giay", "gplx", "lesen", "cdl", "führerscheinnr", "fuhrerscheinnr", "dmv", "non", "state"),
        *("brp", "biometric", "residence", "aufenthaltstitel", "aufenthaltserlaubnis", "titre", "permesso", "permiso"),
        *("tarjeta", "pr", "permanent", "uci", "irp", "health", "ohip", "ramq", "phn", "chi", "versichertennummer"),
        *("krankenversichertennummer", "krankenversicherungsnummer", "sv", "nin", "clave", "credencial", "ine"),
        *("ife", "voter", "epic", "número", "ausweis", "ausweisnr", "emirates", "rg", "registro", "assurance"),
        *("soc", "kitambulisho", "nida", "raqam", "fin", "fİn", "fi̇n", "npwp", "nid", "cin", "kra"),
        *MORE_ID_STEMS,
    ]
)
# Words that name an id only with enough digits after them ("patente" is an Italian
# driving licence, and in Argentina and Chile a car's plate: "patente AB 123 CD").
_MIN_DIGITS_AFTER = {"patente": 5}
# Words that are everyday words too count only with their id's own shape: India's EPIC (a
# voter's card) is three letters and seven digits; "epic 516742717 in Jira" is a story's.
_SHAPE_AFTER = {
    "epic": re.compile(r"[A-Za-z]{3}[\s\-]?\d{7}"),
    # the UK's UTR has ten digits; India's UTR is a bank transfer's reference (SBIN3263...)
    "utr": re.compile(r"\d{5}\s?\d{5}K?|\d{3}\s?\d{3}\s?\d{4}", re.IGNORECASE),
    "nic": NIC_SHAPE,
    # Azerbaijan's FIN has seven letters and digits (Germany's FIN is a car's: "FIN WVWZZZ1KZAW123456")
    **dict.fromkeys(
        ("fin", "fİn", "fi̇n"), re.compile(r"(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{7}")
    ),  # (Sri Lanka's and Pakistan's: "NIC" is a network card too)
    "civil": CIVIL_SHAPE,  # (a court's "Civil No. 2023-004512" is a case)
    # (Brazil's RG has no slash; a French court's "RG n° 24/01188" is its docket's year and number)
    "rg": re.compile(r"[^/]+"),
}
# India's PAN and Hong Kong's id have one printed form ("pan id 6754" is a Zigbee network's,
# "HKID-2024-5513" an appointment's number); for the rules only (the learned stage reads a
# PAN's word beside digits as it did).
_PRINTED_FORM_AFTER = {
    "pan": re.compile(r"[A-Za-z]{5}\s?\d{4}\s?[A-Za-z]"),
    "hkid": re.compile(r"[A-Za-z]{1,2}\s?\d{6}\s?(?:\(?[\dAa]\)?)?"),
    # Mexico's RFC: three or four letters, a date, three characters (a rugby club's "Hollins RFC,
    # acc 41820596" is no RFC)
    "rfc": re.compile(r"[A-Za-zÑñ&]{3,4}[\s\-]?\d{6}[\s\-]?[A-Za-z\d]{3}"),
}


# A value under an id's key holds the id: a run of an id's shape, not only years or words
# ([passport_family] "all four passports in the red folder ... expire Aug 2029").
_ID_RUN = re.compile(r"(?:[A-Za-z]{1,3}[\s\-]?)?(\d)(?:[\s\-./]?[\dA-Za-z]){5,}")


def holds_an_id(value: str) -> bool:
    # (not a number named as another thing's: [id_card_lost] "reported to police, crime ref 01/447821/26";
    # nor a run through words of a sentence: [nie_compi] "el 14/05 a las 10:20" is a date and a time)
    return any(
        id_like(m.group()) and not another_things_number(value, m.start(1)) and not _PROSE_IN_RUN.search(m.group())
        for m in _ID_RUN.finditer(value)
    )


_PROSE_IN_RUN = re.compile(r"\s[a-z]+\s")


def id_like(token: str) -> bool:
    if _DATE.fullmatch(_WORD_BEFORE.sub("", token.strip())):
        return False  # "passport renewed 2024-05-01" (the run may start with the word's end: "ted 02/2024")
    compact = re.sub(r"[\s\-./]", "", token)
    digits = sum(c.isdigit() for c in compact)
    letters = sum(c.isalpha() for c in compact)
    if len({c for c in compact if c.isdigit()}) <= 1 and {c for c in compact.upper() if c.isalpha()} <= {"X"}:
        return False  # a template's "XX0000000"
    if digits >= 6:
        return True
    if _LOWER_WORD.search(compact):
        return False  # an id holds no word in lower case ("ni Simba2023" is Swahili, not a NINO)
    return letters >= 1 and digits >= 2 and len(compact) >= 6 and len(compact) <= 20


_LOWER_WORD = re.compile(r"[a-z]{3,}")
_WORD_BEFORE = re.compile(r"^[A-Za-z]{1,3}\s")
_DATE = re.compile(  # (and a month: [passport] "expires 2031-04", "renewal submitted 02/2024")
    r"(?:19|20)\d\d[\-./](?:0?[1-9]|1[0-2])(?:[\-./](?:0?[1-9]|[12]\d|3[01]))?|(?:0?[1-9]|1[0-2])[\-./](?:19|20)\d\d"
    r"|(?:0?[1-9]|[12]\d|3[01])[\-./](?:0?[1-9]|1[0-2])[\-./](?:19|20)?\d\d"
)


def _by_check_or_form(text: str, words: frozenset[str]) -> bool:
    # (a company's tax number's word names no person's id beside a company: "NIF da empresa 500100144")
    company = words & COMPANY_ID_WORDS and company_numbers(text) and not persons_tax_number(text)
    checked = words - (COMPANY_ID_WORDS - {"инн", "inn"}) if company else words  # (ИНН's check: 12 digits, a person's)
    if id_by_format(text) or id_by_check_digit(text) or worded_checked_id(text, checked):
        return True
    # ΑΦΜ by its check digit, a person's RFC, a RUT without dots, 身份證 E062838(5)
    # (an organisation's ΑΦΜ too: "ΑΦΜ συλλόγου ... (νομικό πρόσωπο)")
    return printed_id_beside_its_word(text) and not company_numbers(text)


def id_not_a_card(text: str, words: frozenset[str]) -> bool:
    """A number an id's word names and its check digit confirms, in a text that names no card
    nor paying: the id, though it passes Luhn with a card's prefix too ("CNP fiul meu, pentru
    bacalaureat: 5050224400374", a Maestro's 50 and length)."""
    return not names_a_payment_card(text) and worded_checked_id(text, words)


def has_government_id(text: str, words: frozenset[str]) -> bool:
    if "İ" in text:  # (Turkish's capital İ lower-cases to "i" and a dot, which splits "FİN")
        words = words | frozenset(WORDS.findall(text.replace("İ", "I").lower()))
    if _by_check_or_form(text, words):
        return True
    if "dni" in words and re.search(r"(?<![\d.])\d{2}\.\d{3}\.\d{3}(?![\d.])", text):
        return True  # an Argentine DNI, written with dots
    if (
        in_another_script(text)
        and (
            any(id_like((script_id_value(m) or "").strip()) for m in SCRIPT_ID_RE.finditer(text))
            or russian_passport(text)
        )
        and not company_numbers(text)
    ):
        return True
    # (a company's tax and registration numbers are not a person's; asked last, as it is
    # the costly question and most text has no id to ask it about)
    if persons_ein(text):
        return True  # a sole proprietor's EIN is the person's, whatever the business is called
    if bool(words & _ID_STEMS) and _id_after_its_word(text) and not names_a_company(text):
        return True
    return (
        listed_document_number(text) or _id_in_a_file_name(text) or _answered_id(text) or id_form_in_its_sentence(text)
    )


# A scan's file name that holds the id ("passport_E19284756.pdf", "dni-12345678Z.jpg").
_ID_FILE_NAME = keyed(
    r"\b(?:passport|reisepass|pasaporte|passeport|ssn|dni|nie|aadhaa?r|ausweis|personalausweis|licen[cs]e|dl|nric)"
    r"[_\-](?P<id>[A-Za-z]{0,3}\d[A-Za-z0-9]{5,12})(?:[_\-][\w\-]*)?\.(?:pdf|jpe?g|png|heic|tiff?|docx?)\b",
    re.IGNORECASE,
)


# An id asked for by its number and answered with the number alone ("> what's his passport
# number?" then "548 213 907"; "her passport is 9 digits right? its 531 220 948").
_ANSWERED = re.compile(
    r"\b(?:"
    + _ID_WORDS
    + r")\b"
    + _NOT_THE_ID_AFTER
    + r"[^?\n]{0,30}?\b(?:number|no|digits?|nummer|n[úu]mero|num[ée]ro)\b[^?\n]{0,20}\?"
    r"\s*(?:>\s*)?(?:(?:it['’]?s|it\s+is|here|yes|yeah|sure)\s*:?\s*)?"
    r"(?P<id>[A-Z]{0,2}\d(?:[ \-]?\d){5,13}[A-Z]?)(?![\w\-])",
    re.IGNORECASE,
)


_A_DATE = re.compile(r"(?:19|20)\d\d\D?\d\d\D?\d\d")


def _answered_id(text: str) -> bool:
    # Tried only where an id's word starts (every id phrase starts with one of the stems):
    # the alternation tried at every position cost 14 ms of a 10,000-character message.
    if "?" not in text:
        return False
    for at, _, _ in word_spans(text, _ID_STEMS.__contains__):
        m = _ANSWERED.match(text, at)
        if m is not None and id_like(m.group("id")) and not _A_DATE.fullmatch(m.group("id")):
            return True
    return False


def _id_in_a_file_name(text: str) -> bool:
    return "." in text and any(id_like(m.group("id")) for m in _ID_FILE_NAME.finditer(text))


def company_numbers(text: str) -> bool:
    """Whether the text names a company and its tax or registration numbers, or its tax
    numbers are all a school's, a hospital's or another organisation's (organisations.py)."""
    return names_a_company(text) or organisations_numbers_only(text)


# Licences that are not a driving licence ("fishing license 2024-118833", "business license
# number 2023-004471", "liquor license", "marriage license no.").
_LICENCE_WORDS = frozenset({"license", "licence", "lic"})
_OTHER_LICENCE_BEFORE = re.compile(r"\b(?:" + "|".join(sorted(OTHER_LICENCES)) + r")\s+$", re.IGNORECASE)
# The far form's value belongs to another key named right before its ":" or "=".
_ANOTHER_KEY_BEFORE = re.compile(
    r"\b(?:\w+_id|id|uid|user(?:name)?|order|ref|customer|account|row|page|count|total|code|phone|tel)\s*[:=]\s*$",
    re.IGNORECASE,
)
_VAT_BEFORE = re.compile(r"\b(?:ust|vat|uid|mwst|tva|iva)[\s\-]?$", re.IGNORECASE)


def _another_licence(text: str, at: int) -> bool:
    return _OTHER_LICENCE_BEFORE.search(text, max(0, at - 25), at) is not None or trade_or_sports_licence(text, at)


_NAME_STEMS_OF_IDS = frozenset({"nik"})
_EIN_STEMS = frozenset({"ein", "employer"})


def _id_after_its_word(text: str) -> bool:
    # Every id phrase starts with one of the stems: try the phrase only where one is (the
    # alternation tried at every position was most of a long message's cost).
    names = names_only(text, _NAME_STEMS_OF_IDS)
    if employers_ein(text):
        names |= _EIN_STEMS  # a W-2's "Employer identification number" is the employer's
    for at, _, stem in word_spans(text, _ID_STEMS.__contains__):
        if stem in names:
            continue  # "Nik's phone is 9905483969": a name, not Indonesia's NIK
        if _VAT_BEFORE.search(text, max(0, at - 6), at):
            continue  # (USt-IdNr., UID-Nr.: a company's VAT number)
        if stem in _LICENCE_WORDS and (_another_licence(text, at) or software_licence(text)):
            continue  # a fishing, business or marriage licence is nobody's id
        if stem in SHAPE_BEFORE and SHAPE_BEFORE[stem].search(text, max(0, at - 30), at):
            continue  # "Pension Scheme Tax Reference": the scheme's
        if NUMBER_OF_AN_APPLICATION_BEFORE.search(text, max(0, at - 50), at):
            continue  # "numéro de demande de passeport 24118233": the application's
        for regex in (_ID_CONTEXT_RE, _ID_FAR_RE):
            m = regex.match(text, at)
            if m is not None and _persons_id_after(text, at, stem, regex, m):
                return True
    return not folded_words(text).isdisjoint(PASSPORT_WORDS) and PASSPORT_NATIONALITY_RE.search(text) is not None


def _persons_id_after(text: str, at: int, stem: str, regex: re.Pattern[str], m: re.Match[str]) -> bool:
    """Whether the number ``m`` found after the id word ``stem`` at ``at`` is a person's id."""
    value = m.group("id")
    if not id_like(value) or _invalid_ssn(m) or text[m.end("id") : m.end("id") + 1] in ("*", "•"):
        return False  # (a masked number: "PAN=464192******6793" is a card's, masked)
    if _cut(text, m):
        return False  # "numéro de sécu de ma fille : 2 87 06 75 ... je te finis ça ce soir": not all of it
    if sum(map(str.isdigit, value)) < _MIN_DIGITS_AFTER.get(stem, 0):
        return False
    shape = _SHAPE_AFTER.get(stem) or _PRINTED_FORM_AFTER.get(stem)
    if shape is not None and not shape.fullmatch(value.strip()):
        return False
    if companys_form(stem, value) or not_the_ids_number(text, at, stem, value, far=regex is _ID_FAR_RE):
        return False
    if organisations_number(text, at, stem, m.start("id"), m.end("id")):
        return False  # "NIF da escola ...", "the hospital's EIN is ...": an organisation's, no person's
    if stem in SHORT_CAPITAL_STEMS and _another_things(text, at, m):
        return False  # "NID 1234567890 is the network interface id", "CIN ... the cinema chain's order number"
    if regex is _ID_FAR_RE and _ANOTHER_KEY_BEFORE.search(text, m.start(), m.start("id")):
        return False  # "passport_no FROM people WHERE id = 12345678": the value is the id's
    if regex is _ID_FAR_RE and another_things_number_named(text, at + len(stem), m.start("id")):
        return False  # "Emirates ID renewal application number is ...": the application's
    return regex is _ID_CONTEXT_RE or len(re.sub(r"\W", "", value)) >= 7


# Short capital id words that are a machine's, a network's or a shop's abbreviation too
# (NID a network or node id, CIN a cinema's or a chain's): the number is the person's id
# only if nothing names it as another thing's.
SHORT_CAPITAL_STEMS = frozenset({"nid", "cin", "nida", "npwp", "kra", "nic"})
_ID_WORD_AT = re.compile(r"(?:" + _ID_WORDS + r")\b", re.IGNORECASE)


def _another_things(text: str, at: int, m: re.Match[str]) -> bool:
    word = _ID_WORD_AT.match(text, at)
    word_end = at if word is None else word.end()
    return named_as_another_things(text, word_end, m.start("id"), m.end("id"))


# A number of digits broken off with an ellipsis, too short for any id ("2 87 06 75 ...", "4471 22…"); a
# document's number of letters and digits before one is whole (an OCR's "Nr. Y8D3K4L9M ... Name:").
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)")
_CUT_BELOW = 9


def _cut(text: str, m: re.Match[str]) -> bool:
    value = m.group("id")
    cut = _ELLIPSIS.search(value)
    head = value[: cut.start()] if cut is not None else value
    if any(c.isalpha() for c in head) or (cut is None and _ELLIPSIS.match(text, m.end("id")) is None):
        return False
    return sum(map(str.isdigit, head)) < _CUT_BELOW


def _invalid_ssn(m: re.Match[str]) -> bool:
    """ "SSN 000-12-3456 is not a valid number": an SSN's area, group and serial rules."""
    digits = re.sub(r"\D", "", m.group("id"))
    if len(digits) != 9 or not re.match(r"(?:ssn|social)", m.group(), re.IGNORECASE):
        return False
    return digits.startswith(("000", "666", "9")) or digits[3:5] == "00" or digits[5:] == "0000"


# The id word, a few words about whose or what for, then "is" or ":" and the value ("The
# EIN for my cleaning business (sole prop) is 84-3917265").
_ID_FAR_RE = re.compile(
    r"\b(?:"
    + _ID_WORDS
    + r")\b"
    + _NOT_THE_ID_AFTER
    # (or what the writer put in a form: "asked for my driver's license, i put NY 312 884 019")
    + r"[^.\n:;?!=]{1,48}?(?:\s(?:is|was|are|ist|est|es|é|è|put|wrote|entered|typed|gave)\s+|:\s*|=\s*)"
    r"(?:(?:number|no\.?|nr\.?|num[ée]ro|nummer|n[úu]mero|#)\s*:?\s*)?"
    # (or a document's serial of capitals and digits: Germany's Personalausweis "L8XK49RT2")
    r"(?P<id>[A-Za-z]{0,3}[\s\-]?\d[\d\s\-./]{4,20}[\dA-Za-z]?|(?-i:(?=(?:[A-Z]*\d){3})(?=\d*[A-Z])[A-Z\d]{8,12}))(?![\w])",
    re.IGNORECASE,
)
# The same vocabulary and checks, read by learned_verdicts.py (when a learned verdict may refuse).
ID_WORDS = _ID_WORDS
SHAPE_AFTER = _SHAPE_AFTER
