"""An organisation's tax number is no person's id (the policy: a company's number is not a
person's id; a school, a hospital, a charity or a council is no more a person than a company).

People name whose number it is in a few ways, the same in every language: the organisation
before the tax word as its owner ("the hospital's EIN", "school district tax ID (EIN)"), after
it with a genitive ("NIF da escola", "RUT del liceo", "Steuernummer vom Pflegedienst", Polish's
case ending "NIP szkoły"), or in an aside right after the number ("Tax ID 94-1234567
(clinic)", "65.104.392-1 (es una corporación)", "600 012 344 (entidade pública, ...)").
``names_a_company`` (national_id_words) needs a company's own word (GmbH, empresa, Ltd) and
reads the whole text; here the organisation must be tied to the tax word itself, so "NIF do
meu filho para a escola: ..." (the child's, for the school) is still an id, and so is a
person's own number beside an organisation's ("o meu NIF ..., o da escola ...").
Each look is a bounded window around one tax word: no pattern runs over the whole text."""

from __future__ import annotations

import re

from engram.domain.sensitive.prefilter import keyed

# Tax and registration numbers' words an organisation's number is written after (lower case,
# as the id rules' stems are; "tax" starts "tax id", "employer" "employer id").
ORGANISATION_TAX_STEMS = frozenset(
    {"ein", "tin", "tax", "taxpayer", "employer", "nif", "nipc", "nip", "rut", "rfc", "cif", "cuit", "steuernummer"}
    | {"steuer", "abn", "npwp", "vat", "inn", "инн", "afm", "αφμ", "utr", "itin", "nit", "ruc", "regon", "ico", "ičo"}
    | {"adószáma", "adószám", "adoszama", "adoszam"}
)
# An organisation that is no person: schools and universities, hospitals and clinics, care
# services, charities and churches, clubs and associations, councils and public bodies, in the
# languages the id rules read (German's compounds by their last part: "Pflegedienst",
# "Musikschule", "Sportverein").
_ORGANISATION = (
    r"(?:school(?:\s+district)?|schools|district|college|university|academy|institute|hospital|clinic|surgery"
    r"|(?:medical|dental|doctor['’]?s?)\s+(?:practice|office)|practice|care\s+(?:home|service|agency|provider)"
    r"|nursing\s+home|hospice|nursery|daycare|day\s+care|kindergarten|preschool|pre-school|charity|nonprofit"
    r"|non-profit|ngo|church|mosque|temple|synagogue|parish|foundation|association|club|council|municipality"
    r"|city|county|town|library|museum|union|co-?op|cooperative|hoa|organi[sz]ation|public\s+body|legal\s+entity"
    # Spanish, Portuguese, French, Italian
    r"|escuela|colegio|liceo|universidad|instituto|cl[íi]nica|corporaci[óo]n|fundaci[óo]n|asociaci[óo]n"
    r"|municipalidad|municipio|ayuntamiento|iglesia|parroquia|guarder[íi]a|entidad(?:\s+p[úu]blica)?"
    r"|persona\s+jur[íi]dica|escola|col[ée]gio|universidade|faculdade|funda[çc][ãa]o|associa[çc][ãa]o"
    r"|c[âa]mara(?:\s+municipal)?|junta(?:\s+de\s+freguesia)?|igreja|par[óo]quia|entidade(?:\s+p[úu]blica)?|creche"
    r"|institui[çc][ãa]o|ipss|pessoa\s+coletiva|[ée]cole|lyc[ée]e|coll[èe]ge|universit[ée]|h[ôo]pital|clinique"
    r"|fondation|mairie|commune|[ée]glise|paroisse|[ée]tablissement|organisme|scuola|universit[àa]|ospedale"
    r"|associazione|fondazione|comune|parrocchia|asilo|ente"
    # German (and its compounds), Dutch, Polish (its cases), Turkish
    r"|\w*(?:schule|verein|stiftung|klinik(?:um)?|krankenhaus|pflegedienst(?:es)?|pflegeheim|kirche|gemeinde)|kita"
    r"|einrichtung|tr[äa]ger|juristische\s+person|ziekenhuis|kliniek|stichting|vereniging|gemeente|kerk"
    r"|szko[łl]\w*|przedszkol\w*|uczelni\w*|uniwersytet\w*|szpital\w*|przychodni\w*|fundacj\w*|stowarzysze\w*"
    r"|parafi\w*|osoba\s+prawna|okul\w*|hastane\w*|vak[ıi]f\w*|vakf\w*|derne[ğg]\w*|belediye\w*"
    # a winery's or a farmers' cooperative (Portuguese's adega), a league; Greek's association and
    # legal person, Hungarian's association and foundation
    r"|adega|cooperativa|league|σ[υύ]λλ[οό]γ\w*|σωματε[ίι]\w*|νομικό\s+πρόσωπο|egyes[üu]let\w*|alap[íi]tv[áa]ny\w*)"
)
# The organisation as the number's owner, right before the tax word ("the hospital's EIN",
# "school district tax ID", "clinic's federal tax id").
_OWNER_BEFORE = re.compile(
    r"\b" + _ORGANISATION + r"(?:['’]s?)?\s+(?:(?:federal|state|own|official|tax|id|identification|employer"
    r"|number|no\.?)\s+){0,3}(?:\(\s*)?$",
    re.IGNORECASE,
)
# The organisation after the tax word, with a genitive or none ("NIF da escola", "RUT del
# liceo", "Steuernummer vom Pflegedienst", "EIN of the hospital", "NIP szkoły językowej").
_OWNER_AFTER = re.compile(
    r"(?:\s*(?:\((?:\w+)\)|id|number|no\.?|nr\.?|#|n[úu]mero|num[ée]ro|nummer))*\s+"
    r"(?:(?:of|de|da|do|das|dos|del|du|des|della|dello|dell['’]|vom|von|der|van|z|od|for(?=\s+(?:the|our|this)\s))\s+)?"
    r"(?:(?:the|our|this|their|its|la|el|le|les|l['’]|il|lo|o|a|os|as|die|das|den|dem|unserer?|unseres|de|het"
    r"|nuestr[oa]|nosso|nossa|notre)\s+)?(?:[^\W\d_]{2,20}\s+)?" + _ORGANISATION + r"\b",
    re.IGNORECASE,
)
# An aside right after the number naming the holder ("(clinic)", "(es una corporación)",
# "(entidade pública, está no site)", "— the school's"): the organisation ends it, one word at
# most after it ("(szkoła językowa, do faktury)"). One that says what an organisation does with
# the number names no holder ("NIF do Tiago: ... (escola pediu para a matrícula)", review rv9).
_ASIDE_AFTER = re.compile(
    r"\s*(?:[(\[]\s*(?:(?:it['’]?s|is|es|est|c['’]est|é|ist|to|jest)\s+)?(?:(?:an?|the|una?|uma?|ein\w*|our)\s+)?"
    r"(?:[^\W\d_]{2,20}\s+)?|[,—–\-]\s*(?:it['’]?s\s+)?(?:the|our)\s+)" + _ORGANISATION + r"(?:['’]s)?\b"
    r"(?=(?:\s+[^\W\d_]{2,20})?\s*(?:[)\],;.:]|$))",
    re.IGNORECASE,
)
# A possessive of a person right before the tax word: the number is that person's whatever
# organisation follows ("my NIF for the school", "his EIN at the clinic").
_PERSON_BEFORE = re.compile(
    r"\b(?:my|his|her|their|meu|minha|mi|mon|ma|mein\w*|sein\w*|ihr\w*|mój|moje|m[íi]o|su)\s+(?:[\w'’]+\s+)?$",
    re.IGNORECASE,
)
_REACH = 40


def organisations_number(text: str, at: int, stem: str, value_start: int, value_end: int) -> bool:
    """Whether the tax word ``stem`` at ``at``, with its number at ``value_start:value_end``,
    names an organisation's number (the module's docstring)."""
    if stem.lower() not in ORGANISATION_TAX_STEMS:
        return False
    before = text[max(0, at - _REACH) : at]
    if _PERSON_BEFORE.search(before):
        return False
    if _OWNER_BEFORE.search(before):
        return True
    word_end = at + len(stem)
    if _OWNER_AFTER.match(text[word_end : min(value_start, word_end + _REACH)]):
        return True
    return _ASIDE_AFTER.match(text, value_end, min(len(text), value_end + _REACH)) is not None


# Every tax word and the number after it (read by the checks that look at a text's numbers
# without their words: a Portuguese NIF's check digit, a Chilean RUT's).
_TAX_WORD_AND_NUMBER = keyed(
    r"\b(?P<stem>ein|tin|tax|nif|nipc|nip|rut|rfc|cif|cuit|steuernummer|abn|vat|инн|afm|αφμ|ad[óo]sz[áa]ma?)\b"
    r"(?P<between>[^\d\n]{0,60}?)(?P<num>[A-Z]{0,4}\d[\d .\-/]{4,18}[\dA-Z]?)",
    re.IGNORECASE,
)


def organisations_numbers_only(text: str) -> bool:
    """Whether the text's tax numbers are all organisations' (at least one, each tied to an
    organisation as above)."""
    found = False
    for m in _TAX_WORD_AND_NUMBER.finditer(text):
        if not organisations_number(text, m.start(), m.group("stem"), m.start("num"), m.end("num")):
            return False
        found = True
    return found
