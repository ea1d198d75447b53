"""Identity documents listed after their word, and whose an EIN is.

A passport's or an identity card's word, then its numbers a little further on, each
perhaps after whose it is ("kids passports: Mia 533918462, Leo 533918471", "Reisepassnummer
von allen:\\nich: C4J9K2L7M\\nAnna: C7PX81N2R", "carta d'identità elettronica CA47192LM").
The number must have a document number's shape: nine digits, or eight to ten capitals and
digits with two digits or more; and nothing may name it as another thing's number (a
booking's, a flight's, an application's) right before it.

An EIN is a business's number: a company's, or an employer's on a W-2, is no person's id;
a sole proprietor's EIN is the person's ("EIN for my sole prop (it's just me): 84-...")."""

from __future__ import annotations

import re

from engram.domain.sensitive.categories import folded_words
from engram.domain.sensitive.prefilter import keyed

# (the words in lower case, as folded_words gives them; the look for them is below)
_DOCUMENT_WORDS = frozenset(
    [
        *("passport", "passports", "reisepass", "reisepässe", "reisepasses", "reisepassnummer", "passeport"),
        *("passeports", "passaporto", "passaporti", "pasaporte", "pasaportes", "passaporte", "passaportes"),
        *("paspoort", "paspoorten", "paszport", "pasaport", "personalausweis", "ausweis", "identità", "identité"),
        *("identidad", "cidadão", "cidadao", "dni"),
    ]
)
_DOCUMENT = keyed(
    r"\b(?:passports?|reisep(?:ass|ässe)(?:es|nummer\w*)?|passeports?|passaport[oie]s?|pasaportes?|paspoort(?:en)?"
    r"|paszport\w*|pasaport\w*|personalausweis\w*|(?:carte|carta)\s+d['’]identit[éeàa]|documento\s+de\s+identidad"
    r"|c[ée]dula\s+de\s+identidad|cart[ãa]o\s+de\s+cidad[ãa]o|(?-i:DNI)|identity\s+cards?|id\s+cards?)\b"
    # (what the word may name instead: the office, a photo, a fee, an appointment)
    r"(?!\s+(?:office|photos?|appointments?|fees?|renewal\s+fee|application\s+fee|size|queue|desk|counter))",
    re.IGNORECASE,
)
# How far after the word its numbers may stand: a list of a family's passports.
_REACH = 160
_NUMBER = re.compile(r"(?<![\w\-./:#€$£])([A-Z0-9]{8,10})(?![\w\-/]|[.,]\d)")
# What names a number as another thing's (right before it, for a document's number).
ANOTHER_THINGS = (
    r"(?:ref(?:erence)?|booking|order|flight|confirmation|pnr|ticket|reservation|case|application|receipt"
    r"|invoice|tracking|phone|tel|fax|mobile|serial|appointment|account|iban|card\s+number|visa\s+number"
    r"|esta|vorgang|aktenzeichen|dossier|r[ée]servation|buchung|prenotazione|reserva|model|part|sku|item|postcode"
    # a secret's word: "passport in the safe, wifi password X4RT9BPF2" gives a password
    r"|code|pin|password|passwort|pw|mdp|contrase[ñn]a|senha|wachtwoord|key|token|wifi|wi-fi"
    # a system's, a meeting's or a count's number ("passport.js ... user 123456789", "build
    # 3F2A9C1B", "Zoom meeting 845123456", "population 545923000", "Wartenummer 123456789")
    r"|users?|uid|build|commit|sha|hash|version|release|job|pid|port|meeting|zoom|webex|room|seat|gate"
    r"|population|total|count|amount|price|issue|pr|request|session|trace|error|err|batch|parcel|shipment"
    r"|customer|member|employee|student|patient|policy|claim|image|container"
    r"|warte\w*|kunden\w*|bestell\w*|auftrags\w*|rechnungs\w*|termin\w*"
    # a machine's, a network's or a shop's ("NID 1234567890 is the network interface id",
    # "CIN 12345678 is the cinema chain's order number")
    r"|interfaces?|network|nic|sensors?|devices?|nodes?|hosts?|servers?|routers?|cluster|instance|machine|vm"
    r"|process|thread|chain|cinema|store|shop)"
)
_ANOTHER_NUMBER = re.compile(r"\b" + ANOTHER_THINGS + r"\b[^\n]{0,20}$", re.IGNORECASE)
_ANOTHER_THING = re.compile(r"\b" + ANOTHER_THINGS + r"\b", re.IGNORECASE)


def another_things_number(text: str, at: int, since: int = 0) -> bool:
    """Whether the number at ``at`` follows a word naming it another thing's ("crime ref 01/..."),
    looked for from ``since`` on."""
    return _ANOTHER_NUMBER.search(text, max(since, at - 40), at) is not None


# A number named right after it as another thing's: "... is the network interface id",
# "... in the sensor table" (a few words between, none that starts another clause or says
# where a person's number is kept: "my NID is 1990... and the router's node id is 4471",
# "... is in the customer table" stay the person's).
_NAMED_AFTER = re.compile(
    r"[\s,:(\-–—]*(?:(?:is|was|=|aka|i\.e\.)\s+(?:just\s+|only\s+|actually\s+)?(?:the|a|an|our|its|their|this)?"
    r"|in\s+(?:the|a|an|our|its|their|this))"
    r"\s*(?:(?!(?:in|on|of|for|from|and|but|or|to|at)\b)[\w'’]+\s+){0,3}?" + ANOTHER_THINGS + r"\b",
    re.IGNORECASE,
)


def named_as_another_things(text: str, word_end: int, start: int, end: int) -> bool:
    """Whether the number at ``start:end``, after an id's word ending at ``word_end``, is
    named as another thing's: between the word and the number ("NID for the sensor:
    99817723"), or right after the number ("CIN 12345678 is the cinema chain's order
    number"). For the short capital id words that are a machine's or a shop's abbreviation
    too (NID, CIN, NIDA, NPWP, KRA)."""
    if _ANOTHER_THING.search(text, word_end, start) or _A_BUSINESS_BETWEEN.search(text, word_end, start):
        return True  # (and a business's: "NPWP perusahaan vendor: 01.234.567.8-901.000")
    return _NAMED_AFTER.match(text, end) is not None or _AN_ORGANISATIONS.match(text, end) is not None


# A business named between the word and the number: its number, not a person's (Indonesia's
# NPWP of a company, "perusahaan", "badan usaha"; Kenya's KRA PIN of a firm).
_A_BUSINESS_BETWEEN = re.compile(
    r"\b(?:perusahaan|badan\s+usaha|company|firm|business|vendor|supplier|corporation|biashara|kampuni)\b",
    re.IGNORECASE,
)


# A number said to be an organisation's, possessive ("NPWP 09.254.294.3-407.000 is the
# company's tax number", "KRA PIN A123456789Z is the firm's registration"); not "in the
# company payroll", where a person's number is kept.
_AN_ORGANISATIONS = re.compile(
    r"[\s,:(\-–—]*(?:is|was|=)\s+(?:just\s+|only\s+|actually\s+)?(?:the|our|its|their|this|my)?\s*"
    r"(?:company|firm|business|employer|organi[sz]ation|corporation|partnership|shop|store|agency|charity|supplier"
    r"|vendor|client|restaurant|school|ngo|llc|ltd|pt|cv)['’]s?\b",
    re.IGNORECASE,
)


# A sentence's end (not an initial's: "L. Ortiz 567128813"); a number in a later sentence
# is the document's only if that sentence names a number ("... abgeholt. Nummer C4Y8R2N71").
_SENTENCE_END = re.compile(r"(?<=\w\w)[.!?](?=\s)|;")
_NAMES_A_NUMBER = re.compile(r"\b(?:numbers?|nummer\w*|num[ée]ro|n[úu]mero|numer|no|nr|n[°º])\b|#", re.IGNORECASE)


def _names_the_document(text: str, start: int, at: int) -> bool:
    """Whether the number at ``at`` still belongs to the document word ending at ``start``:
    nothing names it another thing's, and a later sentence it stands in names a number."""
    if _ANOTHER_NUMBER.search(text, start, at):
        return False
    ends = list(_SENTENCE_END.finditer(text, start, at))
    if not ends:
        return True
    tail = text[ends[-1].end() : at]
    # ("my old passport number field. I'm typing 548192703": the word named the number)
    named = _NAMES_A_NUMBER.match(text, start + len(text[start:at]) - len(text[start:at].lstrip()))
    return bool(named or _NAMES_A_NUMBER.search(tail) or _DOCUMENT.search(tail))


def _document_number(token: str) -> bool:
    digits = sum(c.isdigit() for c in token)
    if token.isdigit():
        # nine digits (a US or UK passport), not one digit repeated, not a year and more
        return len(token) == 9 and len(set(token)) > 2
    return digits >= 2 and any(c.isalpha() for c in token) and not re.fullmatch(r"[A-Z]+\d{4}", token)


def listed_document_number(text: str) -> bool:
    """A passport's or an identity card's number written after its word, within a list."""
    if folded_words(text).isdisjoint(_DOCUMENT_WORDS):
        return False
    for word in _DOCUMENT.finditer(text):
        end = min(len(text), word.end() + _REACH)
        paragraph = text.find("\n\n", word.end(), end)
        for m in _NUMBER.finditer(text, word.end(), end if paragraph < 0 else paragraph):
            if _document_number(m.group(1)) and _names_the_document(text, word.end(), m.start()):
                return True
    return False


_EIN_WORD = keyed(r"\b(?:f?ein|employer\s+id(?:entification)?(?:\s+(?:number|no))?)\b", re.IGNORECASE)
_EIN_FORM = re.compile(r"(?<![\d\-])\d{2}-\d{7}(?![\d\-])")
# What says the EIN is one person's: a sole proprietor's, a freelancer's, "just me".
_ONE_PERSON = re.compile(
    r"\bsole[\s\-]+(?:prop\w*|trader|owner|member)\b|\bself[\s\-]employed\b|\bfreelanc\w*|\bjust\s+me\b"
    r"|\bmy\s+own\s+(?:number|ein)\b|\bbasically\s+(?:mine|my\s+own)\b",
    re.IGNORECASE,
)
# What says it is an employer's: a W-2's boxes, the employer's name or EIN ("last employer's
# EIN 84-2917365", "the EIN of my former employer").
_EMPLOYERS = re.compile(
    r"\bW-?2\b|\bemployer['’]s\s+(?:name|f?ein|tax\s+id)\b"
    r"|\bf?ein\s+(?:of|for)\s+(?:the|my|his|her|their|our)\s+(?:\w+\s+)?employer\b",
    re.IGNORECASE,
)
# What says an EIN is a company's though a freelancer gives it: a company's legal form, or
# "(business)" beside it ("Olu Adeyemi Studio LLC, EIN 84-2917365 (business)").
_CORPORATE = re.compile(
    r"\b(?:LLC|L\.L\.C\.|PLLC|LLP|Inc\.?|Corp\.?|Corporation|Ltd)(?!\w)|\(\s*(?:the\s+)?business(?:['’]s)?\s*\)"
    r"|\bbusiness\s+ein\b",
    re.IGNORECASE,
)


def persons_ein(text: str) -> bool:
    """A sole proprietor's EIN: the person's own number."""
    one_person = bool(_EIN_WORD.search(text) and _EIN_FORM.search(text) and _ONE_PERSON.search(text))
    return one_person and _CORPORATE.search(text) is None


def employers_ein(text: str) -> bool:
    """An EIN on a W-2 or beside the employer's name is the employer's (the employee's SSN
    on the same form still counts)."""
    return bool(_EIN_WORD.search(text) and _EMPLOYERS.search(text)) and not _ONE_PERSON.search(text)


def ein_form(group: str) -> bool:
    """An EIN's printed form, 12-3456789: nine digits, but no SSN's."""
    return _EIN_FORM.fullmatch(group.strip()) is not None


# A trade's or profession's licence, and a sports club's or federation's ("the plumber's
# license number is PL-77104", "licence n° 2411882" for the football club): nobody's id.
_TRADE_LICENCE_BEFORE = re.compile(
    r"\b(?:plumber|electrician|builder|roofer|locksmith|gas\s*fitter|nurse|doctor|physician|dentist|pharmacist"
    r"|realtor|attorney|lawyer|accountant|teacher|therapist|architect|engineer|pilot|club|federation|league)(?:['’]s)?"
    r"\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)
_SPORTS_WORDS = frozenset(
    {"club", "foot", "football", "soccer", "tennis", "golf", "judo", "rugby", "basket", "handball", "fédération"}
    | {"federation", "fff", "ffr", "fft", "league", "cotisation", "licencié", "licencia", "federativa"}
)
_DRIVING_WORDS = frozenset({"driver", "drivers", "driving", "dvla", "dmv", "conduire", "conducir", "permis", "car"})
# An organisation's tax reference named by the organisation right before it.


def trade_or_sports_licence(text: str, at: int) -> bool:
    """Whether the licence word at ``at`` names a trade's or a sports club's licence."""
    if _TRADE_LICENCE_BEFORE.search(text, max(0, at - 40), at):
        return True
    words = folded_words(text)
    return not words.isdisjoint(_SPORTS_WORDS) and words.isdisjoint(_DRIVING_WORDS)


# What names the number after an id's word as another thing's, right before it: an
# application's, an appointment's, a case's, an order's number, a trust's reference. Not
# after "for", "of", ... ("passport number for the visa application is ...": the passport's).
_WHAT_THE_NUMBER_IS = re.compile(
    r"\b(?:ref(?:erence)?|application|appointment|case|claim|order|booking|reservation|confirmation|receipt"
    r"|tracking|ticket|request|transaction|invoice|enquiry|inquiry|complaint|queue|serial|batch"
    # (in more languages: "pasaport randevu numarası", "DNI turno", "KTP permohonan")
    r"|randevu|ba[şs]vuru|takip|cita|turno|solicitud|tr[áa]mite|protocolo|agendamento|maombi|permohonan"
    r"|pendaftaran|antrag\w*|demande|rendez-vous|prenotazione)\b",
    re.IGNORECASE,
)
_FOR_WHAT = re.compile(r"\b(?:for|of|on|in|from|to|with|about|für|pour|para|per|voor|na|dla)\b", re.IGNORECASE)


def another_things_number_named(text: str, word_end: int, start: int) -> bool:
    """Whether, between an id's word ending at ``word_end`` and the number at ``start``, a
    word names the number as another thing's ("Emirates ID renewal application number is
    ...", "NHS trust reference: ...")."""
    return any(
        _FOR_WHAT.search(text, word_end, thing.start()) is None
        for thing in _WHAT_THE_NUMBER_IS.finditer(text, word_end, start)
    )


# A software licence's words: its "license" names a key, not a driving licence.
_SOFTWARE_LICENCE = re.compile(
    r"\blicen[cs]e\s+(?:keys?|codes?|files?|servers?|managers?|agreements?|terms)\b|\bBEGIN\s+LICEN[CS]E\b"
    r"|\b(?:product|activation|serial|registration)\s+(?:key|code)\b|\bsingle[\s\-]user\s+licen[cs]e\b"
    # what a licence counts: "Veeam licence: 10 instances", "licence for 25 seats", "50 user licences"
    r"|\blicen[cs]es?\b[^\n.;]{0,20}?\b\d+\s+(?:instances?|seats?|users?|devices?|cores?|sockets?|nodes?|endpoints?"
    r"|workstations?|mailboxes|vms?)\b|\b\d+[\s\-](?:seat|user|device|core|socket|node|endpoint)s?\s+licen[cs]es?\b",
    re.IGNORECASE,
)


def software_licence(text: str) -> bool:
    return _SOFTWARE_LICENCE.search(text) is not None


# What a value after an id's word is instead of the id: the card's access number printed on a
# German identity card ("Personalausweis: CAN 482917"), a PIN or PUK; an id's word glued by a
# dash to a number after an insurer's or a reference's word is that number's prefix ("policy
# DL-88120-V"); France's INE beside a school's words is a pupil's or a student's number.
_ACCESS_NUMBER = re.compile(r"(?:CAN|PIN|PUK)\b|zugangsnummer", re.IGNORECASE)
_PREFIX_AFTER = re.compile(
    r"\b(?:policy|claim|ref(?:erence)?|order|invoice|ticket|booking|case|contract|job|item|part|sku)"
    r"\s*(?:no\.?|number|#)?\s*:?\s*$",
    re.IGNORECASE,
)
_AN_INSTITUTION = re.compile(
    r"(?:\s+[^\W\d_]+){0,2}?\s+(?:administration|office|agency|authority|department|ministry|hotline|helpline)\b", re.I
)
_SCHOOL = re.compile(
    r"\b(?:[ée]l[èe]ve|[ée]tudiant\w*|parcoursup|scolarit[ée]|lyc[ée]e|coll[èe]ge|student|pupil)\b", re.I
)


# The far form reads a serial of capitals and digits ("Personalausweisnummer von Herrn ...:
# L8XK49RT2") only after a document's word: after "tax id field ... regex: ABC123DEF456" or
# "national id validation for the ticket: JIRA12345" it is a pattern's or a ticket's.
_FAR_DIGITS_VALUE = re.compile(r"[A-Za-z]{0,3}[\s\-]?\d[\d\s\-./]{4,20}[\dA-Za-z]?")


def not_the_ids_number(text: str, at: int, stem: str, value: str, *, far: bool = False) -> bool:
    """Whether the value after the id word ``stem`` at ``at`` is another number (above)."""
    if far and not _FAR_DIGITS_VALUE.fullmatch(value) and _DOCUMENT.compiled.match(text, at) is None:
        return True
    if _ACCESS_NUMBER.match(value.strip()) or _AN_INSTITUTION.match(text, at + len(stem)):
        return True  # ("social security administration phone line is 1-800-772-1213": the office's)
    end = at + len(stem)
    if text[end : end + 1] == "-" and _PREFIX_AFTER.search(text, max(0, at - 30), at):
        return True
    return stem.lower() == "ine" and _SCHOOL.search(text) is not None
