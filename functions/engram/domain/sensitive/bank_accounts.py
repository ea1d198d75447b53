"""Bank accounts: IBANs by country length and mod-97, and account, routing and sort-code numbers
named by a word before them (in the languages people bank in)."""

from __future__ import annotations

import re

from engram.domain.sensitive import bank_names
from engram.domain.sensitive.bank_account_forms import (
    ACCOUNT_OWNER,
    FROM_ONES_OWN,
    KEEPERS_RIGHT_BEFORE,
    MORE_ACCOUNT_WORDS,
    MORE_SERVICES,
    account_of_another_form,
    canadian_account,
    cbu_or_clabe,
    cjk_account,
    e_wallets_phone,
    names_a_bank,
    said_no_bank_account,
)
from engram.domain.sensitive.bank_names import BANK_WORDS, a_banks_own, a_services_account, account_at_named_bank
from engram.domain.sensitive.branch_codes import only_branch_codes
from engram.domain.sensitive.categories import longest_digit_run, longest_number
from engram.domain.sensitive.nordic_accounts import nordic_account
from engram.domain.sensitive.prefilter import keyed

# IBAN lengths by country (ISO 13616 registry, the countries people most often quote).
_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
    "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24,
    "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21,
    "HU": 28, "IE": 22, "IL": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LI": 21,
    "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30,
    "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
    "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TN": 24, "TR": 26, "UA": 29, "VG": 24, "XK": 20,
    # more of the registry, and Iran's sheba (an IBAN in form and check)
    "BY": 28, "IQ": 23, "IR": 26, "LY": 25, "SC": 31, "SD": 18, "SV": 28, "ST": 25, "TL": 23, "VA": 22,
    "LC": 32, "BI": 27, "DJ": 27, "SO": 23, "MN": 20, "NI": 28, "RU": 33, "FK": 18, "OM": 23, "YE": 30,
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


# -- bank accounts -------------------------------------------------------------------------------
_IBAN_WORD = re.compile(r"\biban\b", re.IGNORECASE)
_IBAN_START = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]{2})[ \-]?(\d{2})(?=[ \-A-Za-z0-9])")
_ACCOUNT_WORDS = (
    r"(?:bank\s+)?(?:account|acct|acc|a/c|kto|konto(?:nummer|verbindung)?"
    r"|cuenta(?:\s+(?:corriente|de\s+ahorros?|bancaria|vista|de\s+cheques|rut))?|n[úu]mero\s+de\s+cuenta|compte"
    r"|num[ée]ro\s+de\s+compte|rekening(?:nummer)?|conto(?:\s+corrente)?|numer\s+konta|kontonummer|checking|savings"
    r"|routing|aba|transit|bsb|blz|sort\s*code|sc(?!-\d)|clabe(?:\s+interbancaria)?|cbu|cvu|cci|nuban|(?-i:RTN|DDA)"
    # more languages' account words (and not "SC" joined to a number by a dash: "ref SC-2025-00417" is a
    # reference's prefix, a sort code is "SC 20-45-77")
    r"|nomor\s+rekening|no\.?\s*rek(?:ening)?|norek|s[ốo]\s+t[àa]i\s+kho[ảa]n|t[àa]i\s+kho[ảa]n|stk"
    r"|hesap(?:\s+(?:no|numaras[ıi]))?|č[íi]slo\s+[úu][čc]tu|sz[áa]mlasz[áa]m|broj\s+ra[čc]una|[žz]iro\s+ra[čc]un"
    # (not Sweden's bankgiro: a payee's number an organisation prints on its bills)
    r"|tilinumero|n[úu]mero\s+da\s+conta|numero\s+di\s+conto|rib|reg\.?\s*nr\.?|kontonr\.?|clearingnummer"
    r"|plusgiro|s[ąa]skaitos\s+numeris|arvelduskonto|сч[её]т[ау]?|бик|номер\s+сч[её]та|расч[её]тный\s+сч[её]т|р/с|рахун(?:ок|ку)"
    r"|банкова\s+сметка|λογαριασμ\w*|رقم\s*الحساب|מספר\s*חשבון|חשבון(?:\s*בנק)?|खाता\s*संख्या|เลขที่บัญชี|บัญชี"
    # Malay, Swahili, Hausa, Bengali, Hungarian's word with its bank ("akaun Maybank 1140 ...",
    # "akaunti ya Equity 0170 ...", "asusun Access Bank 16195...", "ব্যাংক হিসাব নম্বর ...")
    r"|akaun|akaunti|asusun|(?:ব্যাংক\s*)?হিসাব\s*নম্বর|bankszámla(?:szám)?"
    r"|" + MORE_ACCOUNT_WORDS + r")"
)
_ACCOUNT_RE = re.compile(
    r"\b" + _ACCOUNT_WORDS + r"(?!\d)(?:\s+(?:ya\s+|di\s+|na\s+|y[ae]-|ka-)?(?-i:[A-Z]{2,6})"
    # or the bank's name, in capitals or in Thai ("STK Vietcombank", "akaunti ya Equity",
    # "เลขที่บัญชี กสิกรไทย")
    r"|\s+(?:ya\s+|di\s+|na\s+)?(?:(?-i:[A-Z][A-Za-z&\-]*)\s+)?(?-i:[A-Z][A-Za-z&\-]*)?(?:bank|banco|banque|bankasi)\b"
    r"|\s+(?:ya\s+|di\s+|na\s+|y[ae]-|ka-)?(?:equity|mandiri|santander|barclays|monzo|revolut|chase|nationwide|lloyds|halifax"
    r"|stanbic|absa|capitec|zenith|kotak|axis|wise|nubank|ita[úu]|bradesco|sberbank|tinkoff|bdo|bpi|metrobank)"
    r"|\s*[\u0e00-\u0e7f]{2,30})?" + ACCOUNT_OWNER + r"(?:\s*(?:number|num|no\.?|nr\.?|#))?"
    r"\s*(?:is|es|est|ist|là|adalah|ialah|je|é|è|er|är|jest|to|ni|ngu|bụ|:|=|-|#)?\s*(?:my\s+|saya\s+|của\s+tôi\s+)?"
    r"(?P<num>\d{8}-\d{8}-\d{8}|\d(?:[ \-/]?\d){5,19})(?![\d.,]\d)"
    r"(?!\s*(?:followers|subscribers|points|calories|euros|dollars|%))",
    re.IGNORECASE,
)
# A number _ACCOUNT_RE can read: six digits or more, single spaces, dashes or slashes between.
_NUMBER_RUN = re.compile(r"\d(?:[ \-/]?\d)*")
# The account words and what may stand between them and the number hold at most this many
# characters besides white space ("bank clabe interbancaria CBU number is my" is 36), except
# "λογαριασμ\w*", which may run on: a text holding it is read whole.
_WORDS_BEFORE_NUMBER = 80


def _account_matches(text: str) -> list[re.Match[str]]:
    """``_ACCOUNT_RE.finditer(text)``, reading only the stretch from shortly before the first number it could match to
    just after the last: the same matches (none starts earlier, and what it looks at after a number lies inside), at a
    fraction of the cost on long text (the words tried at every character were 3 ms of a 10,000-character message)."""
    runs = [m for m in _NUMBER_RUN.finditer(text) if sum(map(str.isdigit, m.group())) >= 6]
    if not runs:
        return []
    start = runs[0].start()
    if "λογαριασμ" in text.lower():
        start = 0
    left = _WORDS_BEFORE_NUMBER
    while start > 0 and left > 0:
        start -= 1
        left -= not text[start].isspace()
    while start > 0 and text[start - 1].isspace():
        start -= 1
    end = runs[-1].end()
    while end < len(text) and text[end].isspace():
        end += 1
    # what follows a number is looked at up to white space and a word ("... 12 followers")
    return list(_ACCOUNT_RE.finditer(text, start, min(len(text), end + 16)))


_SORT_CODE_ACCOUNT = re.compile(
    r"(?<![\d\-])\d{2}-\d{2}-\d{2}\s*(?:/|,|account|acc|acct|\s[\-–—](?=\s))?\s*\d{6,10}(?!\d)"
)  # ("Monzo - 04-00-04 - 55128733")


_COMPACT = re.compile(r"[A-Za-z0-9]+")
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


def has_iban(text: str) -> bool:
    named = _IBAN_WORD.search(text)  # (once: the text before each start read again was quadratic)
    for m in _IBAN_START.finditer(text):
        length = _IBAN_LENGTHS.get(country := m.group(1).upper())
        if length is None:
            continue
        # A lower-case country code counts when the text says it is an IBAN, or when the number is
        # written as one unbroken word (as pasted from a banking app) or in the groups of four it is
        # printed in ("de27 8343 6060 7676 9665 34"); asked first: one that does not is nothing.
        compact = _COMPACT.match(text, m.start())  # (not a copy of the text from there on)
        lower_ok = (
            (named is not None and named.end() <= m.start())
            or (compact is not None and len(compact.group()) == length)
            or _IBAN_GROUPS.match(text, m.start()) is not None
        )
        if not m.group(1).isupper() and not lower_ok:
            continue
        body = _iban_body(text, m.end(), length - 4)
        if body is None:
            if _named_iban_of_another_length(text, m):
                return True
            continue
        if iban_valid(country + m.group(2) + body):
            return True
        if _named_iban_of_another_length(text, m):
            return True
    return False


# The IBAN's word in more scripts: Arabic's "آيبان", Persian's "شبا" (Iran's IBAN).
_IBAN_WORD_ANY = re.compile(r"(?<![\w])(?:iban\w{0,3}|(?:ال)?[آا]يبان|شبا|шба|ІВАN)(?![\w])", re.IGNORECASE)
# An IBAN as written: letters and digits in groups with single spaces or dashes between.
_IBAN_RUN = re.compile(r"[A-Za-z]{2}\d{2}(?:[ \-]?[A-Za-z0-9]{1,4}){3,8}(?![A-Za-z0-9])")


def _named_iban_of_another_length(text: str, m: re.Match[str]) -> bool:
    """An IBAN named as one, a few words before, whose check digits hold though its length is not its country's ("IBAN
    für die Miete: DE55 2004 1010 0505 0013 1944", two digits too many): a mistyped IBAN is still the person's account.
    Without the word, one random number in 97 would pass."""
    if _IBAN_WORD_ANY.search(text, max(0, m.start() - 40), m.start()) is None or not m.group(1).isupper():
        return False
    run = _IBAN_RUN.match(text, m.start())
    if run is None:
        return False
    compact = re.sub(r"[ \-]", "", run.group())
    if not 15 <= len(compact) <= 34 or not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", compact):
        return False
    return int("".join(str(int(c, 36)) for c in compact[4:] + compact[:4])) % 97 == 1


# "account" of something that is not a bank ("AWS account 111122223333", "Steam account").
_NOT_A_BANK_BEFORE = re.compile(
    r"\b(?:aws|amazon|azure|gcp|cloud|iam|customer|user|member|loyalty|player|steam|xbox|playstation|twitter|instagram"
    r"|github|gitlab|google|apple|microsoft|netflix|spotify|uber|utility|utilities|electric(?:ity)?|gas|water|phone"
    r"|mobile|internet|broadband|cable|energy|power|council|insurance|billing|subscriber|comcast|verizon|at&t"
    r"|discord|roblox|epic|fortnite|minecraft|twitch|reddit|facebook|tiktok|snapchat|linkedin|slack|dropbox|adobe"
    r"|nintendo|riot|ubisoft|gaming|paybill|m-?pesa|till|" + MORE_SERVICES + r")\b"
    r"[^\n.]{0,30}$"
    # a clinic's, a school's or a club's account of what is owed to it, named right before
    # the word ("patient account 00488213"; "direct debit for the gym: acct ..." is a bank's)
    r"|\b(?:patient|hospital|clinic|dental|medical|pharmacy|school|student|tuition|library|gym|club|"
    + KEEPERS_RIGHT_BEFORE
    # (and the one who keeps it for the lender: "loan servicer account number 9830042117")
    + r")(?:\s+(?:servicer|servicing|company|provider|lender))?\s+$",
    re.IGNORECASE,
)


# What says, after the number, that the account is no bank's: "account 4421-88 (customer id
# in our CRM, not a bank thing)", "account ID 4471-3308-22 in Salesforce".
# The service or the customer word must be the account's ("in HubSpot", "is a customer
# record"), not a payment's reference or the bank's customer number beside it ("to account
# 31926819, reference JIRA-4411", "account 000123887512, customer number 88123", "not a
# bank holiday payment").
_NOT_A_BANK_AFTER = re.compile(
    r"[^\n]{0,40}?(?:\bnot\s+(?:a\s+)?bank\b(?!\s+holiday)"
    r"|\bin\s+(?:our\s+|the\s+)?(?:crm|salesforce|hubspot|zendesk|jira|ticket(?:ing)?\s+system)\b"
    r"|(?:\bis\s+(?:a|the|our)\s+|\bthe\s+|\(\s*)customer\s+(?:id|account|number|record)\b"
    r"|\baccount\s+(?:number|no)\s+(?:is\s+)?(?:missing|not\s+(?:given|included|provided)))",
    re.IGNORECASE,
)
# (and a reference: "ACCOUNT REF 5315 6471")
_ACCOUNT_ID = re.compile(r"(?i:account|acct|acc)\s+(?:ID|(?i:ref|reference))\b")
# The block a YAML line sits in, named by a service ("aws:\n  account: 123456789012").
_PARENT_LINE = re.compile(r"^([ \t]*)([^\n:]+):[ \t]*$", re.MULTILINE)


_BANK_KEY_WORDS = re.compile(
    r"bank|iban|routing|checking|savings|sort|bsb|giro|konto|cuenta|compte|conto", re.IGNORECASE
)


# What names a bank in the value itself, whatever the key ([phone_notes] "my bank account is
# 000123887512 at Chase", [user] "Kontonummer 1234567890 BLZ 37040044").
_BANK_IN_TEXT = re.compile(
    r"\b(?:bank\w*|iban|routing|aba|checking|chequing|savings|sort[\s\-]?code|bsb|blz|giro\w*|konto\w*|cuenta"
    r"|compte|conto|current\s+account|direct\s+debit)\b",
    re.IGNORECASE,
)


def key_names_another_account(key: str, text: str = "") -> bool:
    """A key naming a service's account, not a bank's ([aws_console], [steam_login]): an
    "account" number in its value is that service's, unless the value names a bank."""
    spelled = re.sub(r"[\W_]+", " ", key)
    named = bool(_NOT_A_BANK_BEFORE.search(spelled + " ")) and not _BANK_KEY_WORDS.search(key)
    return named and not _BANK_IN_TEXT.search(text)


def _service_named_before(text: str, at: int, end: int) -> bool:
    """A service's word shortly before the account word at ``at``, and no bank's word between
    ("electricity bill paid by transfer from account ..." is a bank's)."""
    service = _NOT_A_BANK_BEFORE.search(text, max(0, at - 80), at)
    if service is not None and FROM_ONES_OWN.search(text, max(0, at - 20), at):
        return False  # "pay the electricity bill from my account ...": the payer's
    # (a bank's word between, in a name ("GCash? no, Metrobank account ..."), or before
    # "account" ("supplier bank account no ...") names the bank)
    if service is None:
        return False
    return not (BANK_WORDS.search(text, service.start(), at) or names_a_bank(text, service, at, end))


def _said_no_bank_after(text: str, end: int) -> bool:
    # ("… не банковский" within 60 characters after the number, in another language)
    return _NOT_A_BANK_AFTER.match(text, end) is not None or said_no_bank_account(text, end, end + 60)


def _not_a_bank_account(text: str, m: re.Match[str]) -> bool:
    """An account match that the text says is no bank's: an account "ID", a CRM's or a
    customer's number, a bank's own routing number or sort code, a service's YAML block."""
    if _ACCOUNT_ID.match(m.group()) or a_banks_own(text, m) or e_wallets_phone(text, m):
        return True  # "account ID 4471-3308-22": a system's id for the account
    if bank_names.phone_after_an_account_word(text, m.group("num"), m.end()):
        return True  # "BDO account 0917 555 0142 (that's my mobile)"
    if _NOT_A_BANK_BEFORE.search(m.group()[: m.start("num") - m.start()]):
        return True  # the name between the word and the number is a service's ("account Steam 1234...")
    if _said_no_bank_after(text, m.end()) or a_services_account(text, m.start(), m.start("num"), m.end()):
        return True
    if only_branch_codes(text):
        return True  # "sort code 20-45-77, the account number is in her folder": a branch's, no account
    if _MASK_AFTER.match(text, m.end()):
        return True  # "CLABE: 014 180 ••••••••• 191": the bank's and branch's digits of a masked account
    # (each look is bounded: a long message of many excused accounts read its whole start
    # again for each of them, 10 s at 40,000 characters)
    line_start = text.rfind("\n", max(0, m.start() - _YAML_REACH), m.start()) + 1
    if line_start == 0 and m.start() > _YAML_REACH:
        return False  # no YAML line is that long
    indent = len(text[line_start : m.start()]) - len(text[line_start : m.start()].lstrip(" \t"))
    if indent:
        within = max(0, line_start - _YAML_REACH)
        parents = [p for p in _PARENT_LINE.finditer(text, within, line_start) if len(p.group(1)) < indent]
        if parents and _NOT_A_BANK_BEFORE.search(parents[-1].group(2) + " "):
            return True
    return False


# The rest of a number masked right after its first digits ("014 180 •••••••••", "4471 **** 0028").
_MASK_AFTER = re.compile(r"[ \-]?(?:[•*●·∙]|[xX](?=[xX\s•*]))[ \-]?(?:[•*●·∙xX][ \-]?){2,}")
# How far back a YAML line and its block's name are looked for.
_YAML_REACH = 2000


# Brazil's agência and conta; a UK account before its sort code; a US routing number (ABA
# check digit) and an account (Chinese, Japanese and Korean account words: bank_account_forms).
_CONTA_RE = re.compile(r"\bconta(?:\s+corrente|\s+poupan[çc]a)?\s*:?\s*\d{3,12}-?[\dXx]\b", re.IGNORECASE)
_ACCOUNT_THEN_SORT_RE = re.compile(r"(?<!\d)\d{8}\s*(?:and|,|/|&|\s)\s*\d{2}-\d{2}-\d{2}(?![\d\-])")
_ROUTING_PAIR_RE = re.compile(r"([0-9](?<![\d\-].)\d{8})\s*(?:/|,|\||and|&)\s*\d{6,17}(?![\d\-])")
_ACCOUNT_ROUTING_PAIR_RE = re.compile(r"[0-9](?<![\d\-].)\d{5,16}\s*(?:/|\|)\s*(\d{9})(?![\d\-])")
# A routing number named after it ("321896333 routing, 7710024419 account").
_ROUTING_AFTER_RE = re.compile(
    r"([0-9](?<![\d\-].)\d{8})\s*[,(]?\s*(?:routing|aba|rtn)\b"
    # "026644835 is the routing and 000123887512 is my checking": with the account after it
    r"|([0-9](?<![\d\-].)\d{8})\s+is\s+(?:the|my|our)\s+(?:routing|aba|rtn)\b[^\d\n]{0,30}\d(?:[ \-]?\d){5,16}(?!\d)",
    re.IGNORECASE,
)
# What says money goes to a pair of numbers ("send my paycheck to 063673801 / 2291047733").
_MONEY_WORDS = frozenset(
    [
        *("wire", "wires", "zelle", "transfer", "transfers", "transferred", "routing", "aba", "ach", "deposit"),
        *("deposits", "deposited", "bank", "banks", "banking", "paycheck", "paychecks", "payroll", "salary", "wage"),
        *("wages", "pay", "paid", "send", "sent", "money", "union", "checking", "savings", "direct", "rent"),
        *("landlord", "payee", "remit", "remittance", "stipend", "payout", "reimbursement", "refund", "allowance"),
    ]
)


def _aba_valid(d: str) -> bool:
    """A US routing number: the Federal Reserve's prefixes (00-12, 21-32, 61-72, 80), then
    the ABA check digit."""
    prefix = int(d[:2])
    if not (prefix <= 12 or 21 <= prefix <= 32 or 61 <= prefix <= 72 or prefix == 80):
        return False
    n = [int(c) for c in d]
    return (3 * (n[0] + n[3] + n[6]) + 7 * (n[1] + n[4] + n[7]) + n[2] + n[5] + n[8]) % 10 == 0


# A cheque's MICR line (⑆routing⑆ account⑈), and a routing number then an account a few
# words on in a text about a cheque ("voided check says 061000104 then 7743 0291 8850").
_MICR_RE = re.compile(r"⑆\s?(\d{9})\s?⑆")
_CHEQUE_PAIR_RE = re.compile(r"([0-9](?<![\d\-].)\d{8})(?![\d\-])[^\d\n]{1,20}?\d(?:[ ]?\d){5,16}(?!\d)")
_CHEQUE_WORDS = frozenset({"check", "cheque", "voided", "void", "micr", "checks", "cheques"})


def _routing_and_account(text: str, words: frozenset[str]) -> bool:
    if words & {"routing", "aba", "rtn"} and any(
        _aba_valid(m.group(1) or m.group(2)) for m in _ROUTING_AFTER_RE.finditer(text)
    ):
        return True
    if "⑆" in text and any(_aba_valid(m.group(1)) for m in _MICR_RE.finditer(text)):
        return True
    if words & _CHEQUE_WORDS and any(_aba_valid(m.group(1)) for m in _CHEQUE_PAIR_RE.finditer(text)):
        return True
    if not words & _MONEY_WORDS:
        return False
    pairs = (*_ROUTING_PAIR_RE.finditer(text), *_ACCOUNT_ROUTING_PAIR_RE.finditer(text))
    return any(_aba_valid(m.group(1)) for m in pairs)


# More countries' account forms: Japan Post Bank's 記号 and 番号; Korean dashed numbers
# beside 계좌; Brazil's agência and conta corrente as "ag" and "cc"; Poland's NRB (an IBAN
# without its "PL"); Czech account/bank code (mod 11); Mexico's CLABE (weights 3, 7, 1).
_YUCHO_RE = re.compile(r"記号\s*[:：]?\s*\d{5}\s*[-‐]?\s*番号\s*[:：]?\s*\d{6,8}")
_KR_DASHED_RE = re.compile(r"(?<![\d\-])\d{2,6}-\d{2,6}-\d{2,8}(?:-\d{1,3})?(?![\d\-])")
# Korea's dashed numbers that are no account: a date ("2024-05-01"), a time, and, beside
# the word for a bank alone (not "계좌", an account), a phone number ("010-1234-5678",
# "02-123-4567"); an account has ten digits or more.
_KR_DATE = re.compile(r"(?:19|20)\d\d-(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\d|3[01])|\d\d-\d\d-\d\d")
_KR_PHONE = re.compile(r"0(?:1[016789]|2|[3-6][1-5]|70|50\d)-\d{3,4}-\d{4}")


def _kr_account(text: str) -> bool:
    named = "계좌" in text
    if not named and "은행" not in text:
        return False
    for m in _KR_DASHED_RE.finditer(text):
        number = m.group()
        if _KR_DATE.fullmatch(number):
            continue
        if named or (not _KR_PHONE.fullmatch(number) and sum(map(str.isdigit, number)) >= 10):
            return True
    return False


_AG_CC_RE = keyed(
    r"\bag(?:[êe]ncia)?\.?\s*:?\s*\d{3,5}(?:-\d)?\s*[,/]?\s*(?:(?:opera[çc][ãa]o|op)\.?\s*:?\s*\d{3}\s*[,/]?\s*)?"
    r"(?:cc|c/c|conta)\.?\s*:?\s*\d{3,12}-?[\dXx]\b",
    re.I,
)
_NRB_RE = re.compile(r"(?<![\d\w])\d{2}(?:[ ]?\d{4}){6}(?![\d\w])")
_CZ_ACCOUNT_RE = re.compile(r"(?<![\d/\-])(?:(\d{1,6})-)?(\d{2,10})/(\d{4})(?![\d/])")


def _cz_valid(prefix: str, number: str) -> bool:
    weights = (6, 3, 7, 9, 10, 5, 8, 4, 2, 1)
    ok = sum(int(c) * w for c, w in zip(number.zfill(10), weights, strict=True)) % 11 == 0
    return ok and sum(int(c) * w for c, w in zip(prefix.zfill(10), weights, strict=True)) % 11 == 0


def _more_account_forms(text: str, words: frozenset[str]) -> bool:
    if nordic_account(text, words) or canadian_account(text, words):
        return True
    if account_of_another_form(text, words, _aba_valid) or account_at_named_bank(text):
        return True
    if not text.isascii() and (_YUCHO_RE.search(text) or _kr_account(text)):
        return True
    if _AG_CC_RE.search(text) or (
        longest_number(text) >= 26  # (a Polish NRB has 26 digits)
        and any(iban_valid("PL" + re.sub(r"\D", "", m.group())) for m in _NRB_RE.finditer(text))
    ):
        return True
    if words & {"účet", "účtu", "účtem", "ucet", "uctu"} and any(
        _cz_valid(m.group(1) or "", m.group(2)) for m in _CZ_ACCOUNT_RE.finditer(text)
    ):
        return True
    return cbu_or_clabe(text, words)


def _placeholder(number: str) -> bool:
    """A number of one repeated digit ("00000000", "00-00-00 / 00000000") fills a template."""
    return len(set(re.sub(r"\D", "", number))) <= 1


def has_bank_account(text: str, words: frozenset[str] = frozenset()) -> bool:
    if _more_account_forms(text, words):
        return True
    # (a text whose every number is a branch code holds no account a word names: asked once, not
    # for each of its numbers)
    if not only_branch_codes(text) and any(
        # (the words it looks for end at most ~50 characters before the number)
        not _service_named_before(text, m.start(), m.start("num"))
        and not _placeholder(m.group("num"))
        and not _not_a_bank_account(text, m)
        for m in _account_matches(text)
    ):
        return True
    if longest_digit_run(text) >= 6 and any(  # (6 digits in a row)
        not _placeholder(m.group()) for m in _SORT_CODE_ACCOUNT.finditer(text)
    ):
        return True
    if cjk_account(text):
        return True
    if words & {"agência", "agencia", "banco"} and _CONTA_RE.search(text):
        return True
    if "sort" in words and _ACCOUNT_THEN_SORT_RE.search(text):
        return True
    return _routing_and_account(text, words)


# The same vocabulary and checks, read by learned_verdicts.py (when a learned verdict may refuse).
ACCOUNT_WORDS = _ACCOUNT_WORDS
BANK_IN_TEXT = _BANK_IN_TEXT
NOT_A_BANK_AFTER = _NOT_A_BANK_AFTER
NOT_A_BANK_BEFORE = _NOT_A_BANK_BEFORE
