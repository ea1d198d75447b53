"""When the learned stage's government-id or bank-account verdict may refuse a text.

The model reads context and shape, so it also fires on numbers of the same shape that
belong to something else: a company's tax and registration numbers, an invoice's, a
phone's. On every outside part's clean first run its id verdicts cost more precision than
they added recall (outside 13: the rules alone 0.960, with the model 0.815). So a learned
verdict stands only when the text says what the rules would need to hear, in general terms:

- government id: a word naming a person's id (the rules' own vocabulary, and a few more
  names of identity numbers) stands near a number of an id's length, and no company,
  business or organisation is named beside that word;
- bank account: the text holds an account's worth of digits, the account is not named as
  another service's (the rules' words: "council tax account", "not a bank account"), the
  number is not masked, and it is not named as a phone ("9118 8341 (mobile)"); where the
  only account word is English "account" (every service's), a bank or money sent to it is
  named too.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from engram.domain.sensitive.bank_account_forms import branch_code_alone, said_no_bank_account
from engram.domain.sensitive.bank_accounts import (
    ACCOUNT_WORDS,
    BANK_IN_TEXT,
    NOT_A_BANK_AFTER,
    NOT_A_BANK_BEFORE,
    iban_valid,
)
from engram.domain.sensitive.branch_codes import only_branch_codes
from engram.domain.sensitive.categories import (
    BANK,
    GOVERNMENT_ID,
    SECRET,
    id_digits,
    labelled_as_another_institutions,
    longest_id_number,
    numbers_of_other_institutions,
    without_dates,
)
from engram.domain.sensitive.government_id_checks import DIGIT_GROUPS_RE, WORDED_CHECKS, cpr_valid, ssn_like
from engram.domain.sensitive.government_ids import (
    ID_WORDS,
    SHAPE_AFTER,
    SHORT_CAPITAL_STEMS,
    company_numbers,
)
from engram.domain.sensitive.id_documents import (
    another_things_number_named,
    ein_form,
    employers_ein,
    named_as_another_things,
    not_the_ids_number,
    software_licence,
)
from engram.domain.sensitive.keys import KEY_SPLIT, key_rule
from engram.domain.sensitive.made_up_locks import made_up_lock
from engram.domain.sensitive.national_id_checks import NATIONALITY_CHECKS
from engram.domain.sensitive.national_id_words import (
    NUMBER_OF_AN_APPLICATION_BEFORE,
    SCRIPT_ID_WORDS,
    names_another_number,
)

# One vocabulary: the words the rules read as naming an id ...
_RULES_ID_WORD = re.compile(r"\b(?:" + ID_WORDS + r")\b", re.IGNORECASE)
# (the other scripts' id words, without the value the rule wants within a few characters:
# "ΑΦΜ του πατέρα μου: 940382519")
_SCRIPT_ID_WORD = re.compile(SCRIPT_ID_WORDS, re.IGNORECASE)
# ... and names of identity numbers the rules do not act on alone (too short or too common
# to refuse on without a number of the right shape, which the model judges): identity and
# identification in the Latin-script languages, personal and citizen numbers, Kazakhstan's
# IIN, Indonesia's NPWP, Tanzania's NIDA, Malaysia's and Singapore's "IC", Hebrew's t.z.,
# Swahili's kitambulisho, Egyptian Arabic's national ("qawmi") number, Turkey's TCKN, and
# identity cards and Aadhaar in more scripts (Tamil, Sinhala, Urdu, Nepali).
_MORE_ID_WORDS = re.compile(
    r"\b(?:ident\w*|personnr|person(?:al)?\s*(?:number|nummer|code|kod|id)|soc\.?\s*sec|nida?|iin|npwp|kitambulisho"
    r"|qawm[iy]|citizen(?:ship)?\s*(?:id|number|card|no)|birth\s+number|(?-i:IC|NIN|NID)|ic\s+(?:no|number)|my\s+ic"
    r"|tckn)\b|иин|жсн|ת[\"״']ז|قومي|পরিচয়|पहचान|ஆதார்|அடையாள|හැඳුනුම්පත|شناختی|नागरिकता",
    re.IGNORECASE,
)
# A number of an id's length: five digits or more, in groups or not, or letters and digits.
_ID_NUMBER = re.compile(r"\d(?:(?:[\s\-./]|,\s)?\d){4,}|[A-Z]{1,3}\d{4,}|\d{4,}[A-Z]")
# A company beside the id word names whose number it is ("ИНН организации", "razón social
# ... S.L.", "tax id of the company").
_ORGANISATION = re.compile(
    r"организаци|компани|предприяти|фирм|\b(?:compan\w*|business\w*|corporat\w*|organi[sz]ation\w*|entreprise\w*"
    r"|empres\w*|impres\w*|aziend\w*|societ\w*|soci[ée]t[ée]\w*|unternehm\w*|firm\w*|şirket\w*|yritys\w*|bedrijf\w*"
    r"|f[öo]retag\w*|virksomhed\w*|sp[óo]łk\w*|gmbh|ltd|llc|inc|s\.l|s\.a|sarl|srl|spa"
    # and the organisations that are no company: foundations, charities, clubs, churches
    r"|stiftung\w*|foundation\w*|charit\w*|non-?profit\w*|verein\w*|associa\w*|church\w*"
    # an employer named as the number's holder, Mexico's legal person
    r"|employer['’]s|persona\s+moral|perusahaan|kampuni|c[ôo]ng\s+ty)\b"
    # (and in scripts: a company in Persian, Arabic, Amharic, Hindi, Bengali, Chinese, Japanese, Korean)
    r"|شرکت|شركة|ድርጅ|कंपनी|কোম্পানি|公司|会社|회사|법인",
    re.IGNORECASE,
)
# A business's text, for a number that no id word names: a company, a VAT or sales tax, a
# register, an invoice ("GST/HST registration 123456789 RT0001 (the business)", "ЕИК 121858220 (фирмата)").
_BUSINESS_TEXT = re.compile(
    _ORGANISATION.pattern + r"|\b(?:vat|gst|hst|tps|tvq|pvm|pvn|alv|iva|tva|mwst|ust|btw|moms|kmkr|dph|ddv|pdv"
    r"|regist\w*|reģistr\w*|rejestr\w*|c[ée]g\w*|yhti\w*|įmon\w*|podjet\w*|sp[óo]łk\w*|syarikat|invoice\w*|faktur\w*|factur\w*|fattur\w*|rechnung\w*)\b"
    # a contract's or a supply point's text ("Nº de contrato luz 0049281736, CUPS ES0021...")
    r"|\b(?:contract\w*|contrat\w*|contratt\w*|vertrag\w*|cups)\b|ддс|ндс|חברה|εταιρ|บริษัท",
    re.IGNORECASE,
)
# The check digits of people's national ids, by length (not the SSN's or the CPR's, which
# any number of their length nearly passes): a number that passes one is an id's shape.
_PERSON_CHECKS = tuple(
    (n, check) for _, n, check in (*WORDED_CHECKS, *NATIONALITY_CHECKS) if check not in (ssn_like, cpr_valid)
)
# A number glued to letters or after "#" is a code's, not a person's id.
_CODE_BEFORE = re.compile(r"(?:[^\W\d_]|#|[^\W\d_][\-_/])\Z")
_BEFORE, _AFTER, _BESIDE = 40, 80, 30
_ID_MIN_DIGITS, _ACCOUNT_MIN_DIGITS = 5, 6

_ACCOUNT_WORD = re.compile(r"\b" + ACCOUNT_WORDS + r"|\biban\b", re.IGNORECASE)
# English "account" alone is every service's (a CRM's record, a plan's customer): with no other
# account word, a bank account needs its bank named ("bank", "IBAN", "sort code", "checking"...)
# or money sent to it.
_BARE_ACCOUNT = re.compile(r"(?:account|acct|acc|a/c)s?", re.IGNORECASE)
_MONEY_SENT = re.compile(
    r"\b(?:transfer\w*|wire[ds]?|deposit\w*|payee|beneficiar\w*|salary|wages|pay(?:s|ing)?\s+into|paid\s+into"
    r"|refund\w*|sepa|ach|swift|bic)\b",
    re.IGNORECASE,
)
_MASKED = re.compile(r"[•*xX]{4}")
_CLAUSE_BREAK = re.compile(r"[:,;(\n]")
_PHONE_AFTER = re.compile(
    r"\W{0,3}\(?(?:mobile|mobil|phone|tel|cell|handy|whatsapp|m[óo]vil|celular|portable)\b", re.IGNORECASE
)


def learned_verdict_stands(read: str, key: str, learned: str) -> bool:
    """Whether the model's verdict ``learned`` on ``read`` (the text as the model read it)
    under ``key`` may refuse it."""
    if learned == GOVERNMENT_ID and company_numbers(read):
        return False  # a company's tax or registration number is no person's id ("NIP firmy", "SIRET")
    if learned == GOVERNMENT_ID:
        return _names_an_id(read, key)
    if learned == BANK:
        return _an_account(read)
    # (a safe or a door in a game or a story opens nothing: "en el juego la combinación de la caja fuerte es 3-3-9-1")
    return learned != SECRET or not made_up_lock(read)


def _no_number(read: str, least: int) -> bool:
    # an id or an account number has digits; the words alone, dates, times, a key's
    # fingerprint or a digest are no number ("statement period 01/10/2024 - 31/10/2024"),
    # and a hospital's or an order's number is that institution's ("Hospital No. K0092281")
    return id_digits(read) < least or numbers_of_other_institutions(read)


def _names_an_id(read: str, key: str) -> bool:
    if _no_number(read, _ID_MIN_DIGITS):
        return False
    spelled = KEY_SPLIT.sub(" ", key)
    if key and (key_rule(key) == GOVERNMENT_ID or _names_id(spelled)):
        return True  # [personnummer] 8112189876: the key names the id
    # (a record's fields, "driver_license"; sums of money, "NI 198.44", are no id's number)
    # (and dates and times: "Licence issued: 2005 ... Date of birth: 15.03.1986" names no licence's number)
    text = without_dates(_AMOUNT.sub(_blank, read.replace("_", " ")))
    for regex in (_RULES_ID_WORD, _SCRIPT_ID_WORD, _MORE_ID_WORDS):
        for m in regex.finditer(text):
            a, b = m.start(), m.end()
            near = _near_number(text, a, b)
            if near and not _ORGANISATION.search(text[max(0, a - _BESIDE) : b + _BESIDE]):
                if _another_things(text, m, near) or _NOT_GIVEN.match(text, b) or _not_its_shape(text, m):
                    continue  # "NID 1234567890 is the network interface id", "PAN: to be provided"
                if _an_applications(text, m, near):
                    continue  # "número de trámite del DNI ...", "pasaport randevu numarası ...": not the id
                if _NEGATED.search(text, max(0, a - _BESIDE), a) or _not_a_persons(text, m, near):
                    continue  # "... — ليس رقم هوية", "não é CPF", "Personalausweis: CAN 482917"
                return True
    return _checked_person_id(text)


# A paragraph's end: the number after it is another paragraph's.
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_LICENCE_WORD = re.compile(r"licen[cs]e", re.IGNORECASE)


def _near_number(text: str, a: int, b: int) -> re.Match[str] | None:
    """The first number of an id's length near the id's word at ``a:b``, in its paragraph, not
    labelled as another thing's ("Licence issued: 2005 ...\n\nBooking: EUR-448291", "Veeam
    licence: 10 instances, ... contract number 0031749288"); none after a software licence's word."""
    if _LICENCE_WORD.match(text, a) and software_licence(text):
        return None
    for near in _ID_NUMBER.finditer(text, max(0, a - _BEFORE), b + _AFTER):
        between = (near.end(), a) if near.end() <= a else (b, near.start())
        if _PARAGRAPH.search(text, *between) or labelled_as_another_institutions(text, near.start()):
            continue
        return near
    return None


# A sum of money with its cents ("Gross 3,250.00  Tax 441.20  NI 198.44").
_AMOUNT = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})*\.\d{2}(?![\d.])")
# An id word whose value the text says is not given ("PAN: to be provided by employee").
_NOT_GIVEN = re.compile(
    r"\s*[:\-=]?\s*(?:to\s+be\s+(?:provided|supplied|confirmed|sent|added)|pending|n/?a\b|tbd|tbc|blank|missing"
    r"|not\s+(?:yet\s+)?(?:provided|given|known|available|requested|required|needed|collected|asked|included|shared|kept"
    r"|stored|on\s+file))",
    re.IGNORECASE,
)
# An id's word said to be not what the number is, right before the word ("prontuário nº
# 2024/00418 — é número interno, não é CPF", "(kein Ausweisnummer)", "ليس رقم هوية", "不是身份证号").
_NEGATED = re.compile(
    r"(?:\b(?:not|no|isn['’]t|never|n['’]est\s+pas|pas|não(?:\s+é)?|nao(?:\s+e)?|no\s+es|non\s+è|kein\w*|nicht|geen"
    r"|niet|nie\s+jest|değil|не)\s+(?:an?|the|any|um|uma|un|une|una|el|la|le|ein\w*|een|a)?\s*"
    r"|(?:ليس|ليست|لا)\s*|不是|并非|並非|非|아닌\s*)$",
    re.IGNORECASE,
)


_SSN_FORM = re.compile(r"\d{3}-\d{2}-\d{4}")
# Mexico's RFC of a company: three letters, a date, three characters (a person's has four letters).
_COMPANY_RFC = re.compile(r"(?<![A-ZÑ&])[A-ZÑ&]{3}\d{6}[A-Z\d]{3}(?![A-Z\d])")


def _not_a_persons(text: str, word: re.Match[str], near: re.Match[str]) -> bool:
    """The number near an id's word is the word's institution's, an employer's EIN or a
    company's RFC ("Personalausweis: CAN 482917", "last employer's EIN 84-2917365",
    "RFC del despacho: DLM180312KT4")."""
    if not_the_ids_number(text, word.start(), word.group(), text[word.end() :].lstrip(" :=#")):
        return True
    if ein_form(near.group()) and employers_ein(text):
        return True
    if word.group()[:3].lower() in ("инн", "inn") and len(re.sub(r"\D", "", near.group())) == 10:
        return True  # a company's ИНН has ten digits (a person's twelve)
    if _SSN_FORM.fullmatch(near.group()) and not ssn_like(re.sub(r"\D", "", near.group())):
        return True  # {"ssn": "invalid: 000-12-3456 cannot start with 000"}: no SSN is issued so
    rfc = word.group().lower() == "rfc"
    return rfc and _COMPANY_RFC.search(text, word.end(), word.end() + _AFTER) is not None


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


def _not_its_shape(text: str, word: re.Match[str]) -> bool:
    """An id word whose id has one shape, with no number of that shape after it (India's
    "UTR no. HDFCR52026112044812290" is a bank transfer's, a UK UTR has ten digits)."""
    shape = SHAPE_AFTER.get(word.group().split()[0].lower())
    if shape is None:
        return False
    bounded = re.compile(r"(?<![\w\-])(?:" + shape.pattern + r")(?![\w\-])", shape.flags)
    return bounded.search(text, word.end(), word.end() + _AFTER) is None


def _another_things(text: str, word: re.Match[str], number: re.Match[str]) -> bool:
    """A short capital id word's number named as another thing's (the rules' question)."""
    stem = word.group().split()[0].lower()
    return stem in SHORT_CAPITAL_STEMS and named_as_another_things(text, word.end(), number.start(), number.end())


def _an_applications(text: str, word: re.Match[str], number: re.Match[str]) -> bool:
    """The number of an application, an appointment or a procedure for the id, named before
    the id's word or between it and the number (the rules' question)."""
    a, b = word.start(), word.end()
    return (
        NUMBER_OF_AN_APPLICATION_BEFORE.search(text, max(0, a - 50), a) is not None
        or (number.start() > b and another_things_number_named(text, b, number.start()))
        or names_another_number(text[max(0, a - 30) : max(b, number.start())])
    )


def _checked_person_id(text: str) -> bool:
    """No word names the id, but a number has a person's id's check digits, in a text that
    is not a business's ("canada revenue wanted 784 968 265", "huurder 1: Eva de Vries,
    166330450"): a number with check digits is seldom a look-alike by chance (one in ten)."""
    if _BUSINESS_TEXT.search(text):
        return False
    for m in DIGIT_GROUPS_RE.finditer(text):
        if _CODE_BEFORE.search(text, 0, m.start()):
            continue  # the digits of a code ("order #OD4301182290", "SKU-48213377") are that code's
        digits = re.sub(r"\D", "", m.group())
        if any(len(digits) == n and check(digits) for n, check in _PERSON_CHECKS):
            return True
    return False


def _names_id(text: str) -> bool:
    return any(regex.search(text) for regex in (_RULES_ID_WORD, _MORE_ID_WORDS))


# An IBAN's form with check digits no IBAN has (00, 01, 99): a fixture's filler, no account;
# and an ISO 11649 creditor reference ("RF18 5390 0754 7034"): a payment's reference.
_IMPOSSIBLE_IBAN = re.compile(r"\b(?:[A-Z]{2}(?:00|01|99)|RF\d\d)(?:[ ]?[A-Z0-9]{4}){1,7}(?:[ ]?[A-Z0-9]{1,3})?\b")


def _no_account_number(read: str) -> bool:
    """Whether the text holds no number that may be an account's (the questions asked first)."""
    if only_branch_codes(read):
        return True  # "sort code 20-45-77, the account number is in her folder": a bank's branch, no account
    if _no_number(read, _ACCOUNT_MIN_DIGITS) or _MASKED.search(read) or NOT_A_BANK_AFTER.search(read):
        return True
    # ("la CLABE ... son 18 dígitos. Concepto: factura A-4471": no number is an account's)
    return longest_id_number(read) < _ACCOUNT_MIN_DIGITS


def _an_account(read: str) -> bool:
    read = _IMPOSSIBLE_IBAN.sub(" ", read)
    if _no_account_number(read):
        return False
    words = list(_ACCOUNT_WORD.finditer(read))
    if not words and company_numbers(read):
        return False  # "משק כהן בע\"מ, ח.פ. 514123456": a company's registration number
    if _references_only(read) or branch_code_alone(read) or said_no_bank_account(read) or _iban_said_invalid(read):
        return False  # "SPEI: número de referencia 4827193, clave de rastreo MBAN0100...": a transfer's
    if words and all(_another_account(read, m.start()) for m in words):
        return False  # "council tax account 0418833417", "AWS account 111122223333"
    if words and all(_BARE_ACCOUNT.fullmatch(m.group()) for m in words) and not _names_a_bank(read):
        return False  # "salesforce query result: Account 0015g00000LmNoP", "account,plan,seats\n4471203,..."
    numbers = list(_ID_NUMBER.finditer(read))
    return not numbers or not all(_PHONE_AFTER.match(read, m.end()) for m in numbers)


# An IBAN as written, and words saying a number is invalid ("my validator says the check digits
# are wrong", "IBAN ungültig", "no es válido").
_IBAN_RUN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ \-]?[A-Z0-9]{1,4}){3,8}(?![A-Za-z0-9])")
_INVALID = re.compile(
    r"\b(?:invalid|not\s+valid|wrong|incorrect|fails?|failed|doesn['’]t\s+(?:validate|pass)|typo|ung[üu]ltig|falsch"
    r"|fehlerhaft|inv[áa]lid[oa]|no\s+es\s+v[áa]lid[oa]|incorrect[oa]|errad[oa]|non\s+valide|erron[ée]e?|ongeldig"
    r"|nieprawid[łl]ow\w*|b[łl][ęe]dn\w*|geçersiz|hatal[ıi])\b",
    re.IGNORECASE,
)


def _iban_said_invalid(read: str) -> bool:
    """One IBAN, whose check digits fail, said by the text to be invalid, and no other number of an
    account's length ("IBAN DE44 5001 0517 5407 3249 32 is what the client sent, but my validator
    says the check digits are wrong"): no account anyone can be paid into. (A mistyped IBAN the
    text does not call wrong is still read as the account it was meant to be, and so is a
    second one given as the right one.)"""
    ibans = list(_IBAN_RUN.finditer(read))
    if len(ibans) != 1 or iban_valid(ibans[0].group()) or _INVALID.search(read) is None:
        return False
    rest = _IBAN_RUN.sub(" ", read)
    return longest_id_number(rest) < _ACCOUNT_MIN_DIGITS


# A payment's reference, a transfer's tracking key, a virtual account issued for one bill,
# labelled right before a number (a few capitals of the key may lead it: "MBAN0100...").
_REFERENCE_LABEL = re.compile(
    r"(?:clave\s+de\s+rastreo|referencia|n[úu]mero\s+de\s+(?:referencia|operaci[óo]n|rastreo|autorizaci[óo]n)|folio"
    r"|comprobante|reference|ref|transaction(?:\s+id)?|txn|utr|rrn|virtual\s+account|nomor\s+va|kode\s+bayar"
    r"|주문번호|订单号|訂單號)(?!\w)",
    re.IGNORECASE,
)
_LABEL_TO_NUMBER = re.compile(r"\s*(?:no\.?|number|nr\.?|#)?\s*[:=]?\s*[A-Z]{0,6}", re.IGNORECASE)


def _references_only(read: str) -> bool:
    """Whether every number of an account's length is labelled as a payment's reference (the
    labels found once, each number's nearest label before it then read: linear on long text)."""
    ends = [m.end() for m in _REFERENCE_LABEL.finditer(read)]
    if not ends:
        return False
    numbers = [m for m in _ID_NUMBER.finditer(read) if sum(map(str.isdigit, m.group())) >= _ACCOUNT_MIN_DIGITS]
    for m in numbers:
        i = bisect_right(ends, m.start()) - 1
        if i < 0 or _LABEL_TO_NUMBER.fullmatch(read, ends[i], m.start()) is None:
            return False
    return bool(numbers)


def _names_a_bank(read: str) -> bool:
    return BANK_IN_TEXT.search(read) is not None or _MONEY_SENT.search(read) is not None


def _another_account(read: str, at: int) -> bool:
    clause = _CLAUSE_BREAK.split(read[max(0, at - 60) : at])[-1]
    return NOT_A_BANK_BEFORE.search(clause) is not None
