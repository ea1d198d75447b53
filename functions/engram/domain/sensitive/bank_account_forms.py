"""More countries' and files' account forms, each told by its own printed shape:

- New Zealand's bank-branch-account-suffix ("12-3140-0448126-00"): two digits of a bank in
  use (01-38), four of a branch, seven of an account and a suffix of two or three, dashed
  or spaced, beside a bank's name or a word of accounts or paying ("part 12-3140-..." is
  a part).
- A cheque's MICR on-us field: the digits between a transit symbol and an on-us symbol
  ("⑆ 5220884⑈", Canada's "⑈04471⑈004⑆ 5220884⑈ 112") are the account. Only a cheque
  line holds these symbols.
- Iceland's bank-ledger-account ("0159-26-480302") beside "reikningur" or a bank's word
  ("reikningur" alone is an invoice too: "reikningur 8210861599").
- A UK BACS payment row: a sort code of six digits, then an account of eight
  ("200000,41222919,"P HUGHES",1850.00"), in a text about a BACS file or sort codes.
- An Indian account beside its branch's IFSC code, with no account word ("transfer to
  50100234567812 IFSC HDFC0001234"): nine to eighteen digits within a few words of the
  code, not a phone (a phone's word before it) nor the branch's MICR.
- Hungary's giro account: two or three blocks of eight digits, each ending in its check
  digit (weights 9, 7, 3, 1), dashed ("11773016-11111018"), or spaced beside a word of
  accounts or paying. One pair of numbers in a hundred passes both checks by chance."""

from __future__ import annotations

import re
from collections.abc import Callable

from engram.domain.sensitive.categories import longest_digit_run
from engram.domain.sensitive.prefilter import answered_once, keyed

# More languages' account words (read by bank_accounts._ACCOUNT_RE):
# the word borrowed from English in Bengali, Hindi, Urdu, Yoruba, Zulu and Xhosa; the
# account's number in Hindi, Tamil and Urdu; Amharic's ሂሳብ (also a bill: with "bank"
# before it or "number" after it)
MORE_ACCOUNT_WORDS = (
    r"(?:অ্যাকাউন্ট|একাউন্ট)(?:\s*(?:নম্বর|নাম্বার))?|अकाउंट(?:\s*(?:नंबर|नम्बर))?|खाता\s*(?:नंबर|नम्बर|क्रमांक|नं\.?)"
    r"|கணக்கு\s*எண்|(?:اکاؤنٹ|اکاونٹ|کھاتہ|کھاتا|خاتہ)(?:\s*نمبر)?|[aà]k[aá][nǹ]t[iì]|akhawunti|ባንክ\s*ሂሳብ(?:\s*ቁጥር)?"
    # Amharic's account number, Igbo's account, Persian's account number, Turkish's "my account number"
    r"|ሂሳብ\s*ቁጥር|aka[uụ]nt[uụ]|شماره\s*حساب|hesap\s+numaram"
    # Yoruba's bank account, Armenian's bank account and account number, Georgian's account
    # number, Sinhala's, Burmese's (ဘဏ်အကောင့်) and Khmer's account number
    r"|[aà]k[aá][nǹ]t[iì]\s+b[aá]nk[iì]|բանկային\s+հաշ\w*|հաշվեհամար\w*|ანგარიშის\s+ნომერი|ගිණුම්\s*අංකය"
    r"|(?:ဘဏ်\s*)?အကောင့်(?:\s*နံပါတ်)?|លេខ\s*គណនី"
    # the account alone in Khmer, Lao, Armenian (and in Latin letters), Mongolian, Gurmukhi, Tamil
    # (with or without "bank" before it), Bengali's "account no." (হিসাব নং), Hausa's "my account"
    # (asusuna), Uzbek's account number (hisob raqami, ҳисоб рақами)
    r"|គណនី|ບັນຊີ(?:\s*ເລກ(?:ທີ)?)?|հաշիվ\w*|hashiv\w*|данс(?:ны)?(?:\s+дугаар\w*)?|ਖਾਤਾ(?:\s*(?:ਨੰਬਰ|ਨੰ\.?))?"
    r"|(?:வங்கி\s*)?கணக்கு(?:\s*எண்)?|হিসাব\s*(?:নং|নম্বর|নাম্বার)|asusu(?:n|na|nka|nki)"
    r"|hisob\s+raqam\w*|ҳисоб\s+рақам\w*"
)
# Whose the account is, between its word and the number: Tagalog's "ni ate", "ko", Zulu's
# "kaMama", "yami", Yoruba's "mi", "of my mum", "de mi hermano", "von Oma" (then ":" or the
# number; "account of Netflix" is a service's, read after).
ACCOUNT_OWNER = (
    r"(?:\s+(?:(?:ni|ng|of|de|del|da|do|von|van|di)\s+(?:(?:my|mi|mein\w{0,2}|meu|minha|mon|ma|mijn)\s+)?"
    r"[^\W\d_]{2,14}|ka(?-i:[A-Z])[^\W\d_]{1,14}|ko|mi|yami|yangu|wangu|wami|m)(?=\s*[:=\-]|\s+(?:is|ni|ngu|bụ)\b|\s+\d))?"
)
# More services whose "account" is no bank's (read by bank_accounts._NOT_A_BANK_BEFORE):
# utilities and telecoms people pay bills to, and e-wallets, whose account is a phone
# number ("nombor akaun TNB 164028913", "Meralco account ...", "GCash ... account 0917 555 0142").
MORE_SERVICES = (
    r"tnb|meralco|pln|eskom|kplc|bescom|syabas|unifi|maxis|celcom|digi|pldt|globe|telkom|airtel|jio|vodafone"
    r"|edf|engie|iberdrola|endesa|enel|octopus|pg&e|con\s?ed|bil|tagihan|gcash|paymaya|paytm|phonepe|bkash"
    r"|nagad|opay|palmpay|zalopay|ovo|gopay|venmo|cash\s?app|paypal|alipay|wechat"
    # TV and phone providers, a tax office's online account, a club's membership
    r"|sky|bt|virgin\s+media|talktalk|xfinity|spectrum|directv|foxtel|optus|telstra|rogers|telus|t-?mobile|o2"
    r"|hmrc|irs|membership"
    # Russia's housing and utilities (a лицевой счёт there is the flat's, not a bank's)
    r"|жкх|коммуналк\w*|квартплат\w*|капремонт\w*"
    # (not Maya's nor MoMo's: people's names too, "Maya's account number is 41222919"; their
    # accounts that are phones pass by e_wallets_phone)
)
# Who keeps the account, named right before its word: a supplier's or a trade account with
# a shop ("supplier account no 5397047, net 30"), a fuel or store card's ("a supplier's bank
# account" has its bank word between and stays a bank's).
# (and the accounts of a plan, an investment, a loan or a bill that are no bank account: "529
# plan account number 4829-1736-01", "RESP account", "mortgage account 8829 1044 22", "nomor
# virtual account ... untuk tagihan")
KEEPERS_RIGHT_BEFORE = (
    r"supplier|vendor|trade|wholesaler?|distributor|(?:fuel|fleet|store|petrol|toll)\s+card"
    r"|529(?:\s+plan)?|plan|resp|rrsp|tfsa|401\(?k\)?|(?:roth\s+)?ira|brokerage|investment|pension|mortgage|loan|virtual"
)
# An account the text gives no number of, beside a bank's branch code: masked or its last
# digits only ("acct ending 5613", "Account: ••••1736", "account_last4"), kept elsewhere ("account
# on file", "[illegible]", "in the attached PDF"), still to come ("account number to be
# confirmed").
ACCOUNT_WITHHELD = (
    r"(?:acc(?:oun)?t\w*|a/c)[\s_:\-]*(?:(?:number|no|#)\s*)?(?:(?:is|was)\s+)?(?:[:=]\s*)?"
    r"(?:(?:ending|ends)(?:\s+in)?|last\s*(?:4|four)|[•*xX]{3,}|\[?(?:on\s+file|illegible|redacted|masked)\]?"
    r"|to\s+be\s+(?:confirmed|provided|sent)|tbc|tbd|(?:not\s+(?:included|given|shown))|in\s+the\s+attach\w*)"
    r"|\[on\s+file\]|\b(?:just|only)\s+(?:the\s+)?(?:bank['’]s\s+)?(?:branch|bank)\b"
)
_WITHHELD = re.compile(ACCOUNT_WITHHELD, re.IGNORECASE)
_LONG_NUMBER = re.compile(r"\d(?:[ \-.]?\d){5,}")
_BRANCH_WORD = re.compile(r"(?<![^\W_])(?:routing|aba|rtn|transit|bsb|blz|sort[\s_\-]?code)", re.IGNORECASE)


def branch_code_alone(text: str, *, branch_key: str = "") -> bool:
    """A bank's branch code (a routing number, a sort code, a BSB) as the text's one number,
    after its word or under a record's ``branch_key``, the account said to be withheld
    ("routing 121000358, account on file, ending 9045"; "Routing: 074000023  Account:
    [illegible]"; a table's "routing" column beside "[on file]"): the bank's number, no account."""
    # (once a run per text and key: a record asks for each bank field; a form pasted often was quadratic)
    return answered_once("branch_code_alone", (branch_key, text), lambda: _branch_code_alone(text, branch_key))


def _branch_code_alone(text: str, branch_key: str) -> bool:
    if _WITHHELD.search(text) is None:
        return False
    numbers = list(_LONG_NUMBER.finditer(text))
    # (the branch's word anywhere: a table's header may name the column a line before)
    return len(numbers) == 1 and _BRANCH_WORD.search(branch_key + " " + text) is not None


# "not a bank account" in more languages ("это номер лицевого счёта ЖКХ, не банковский",
# "no es una cuenta bancaria", "kein Bankkonto", "pas un compte bancaire", "não é conta bancária").
_NOT_A_BANK_IN_OTHER_LANGUAGES = re.compile(
    r"\bне\s+(?:банковск\w*|в\s+банке)|\bno\s+(?:es\s+)?(?:una\s+)?(?:cuenta\s+)?bancari[ao]"
    r"|\bkein(?:e)?\s+bank\w*|\bpas\s+(?:un\s+)?(?:compte\s+)?bancaire|\bnão\s+(?:é\s+)?(?:uma\s+)?(?:conta\s+)?banc[áa]ri[ao]"
    r"|\bnon\s+(?:è\s+)?(?:un\s+)?(?:conto\s+)?bancario|\bgeen\s+bank\w*|\bbukan\s+rekening",
    re.IGNORECASE,
)


def said_no_bank_account(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether the text says, between ``start`` and ``end``, in another language than English,
    that the account is no bank's (each phrase starts with its own word: cheap on long text)."""
    return _NOT_A_BANK_IN_OTHER_LANGUAGES.search(text, start, len(text) if end is None else end) is not None


# Money paid from one's own account is paid from a bank's ("pay the electricity bill from my
# account 55120043").
FROM_ONES_OWN = re.compile(r"\bfrom\s+(?:my|our|his|her|their|the|your)\s+(?:own\s+)?$", re.IGNORECASE)
_BANK_INSIDE = re.compile(r"bank|banco|banque", re.IGNORECASE)


_BANK_BEFORE_ACCOUNT = re.compile(r"bank\s+(?:account|acct|a/c)\b", re.IGNORECASE)


def names_a_bank(text: str, service: re.Match[str], at: int, end: int) -> bool:
    """A bank's name after a service's word, before the account's word at ``at`` ("GCash? no,
    Metrobank account ..."), or "bank" as the account's first word ("supplier bank account");
    or the service's word is a person's (below)."""
    named = _BANK_INSIDE.search(text, service.start(), at) is not None
    return named or _BANK_BEFORE_ACCOUNT.match(text, at, end) is not None or _a_persons(text, service, at, end)


# A service's name that is a person's: said as theirs ("Rogers' account", "Sky's account
# number is ..."), with a bank's details after the number ("Tom Rogers account number
# 41222919 sort code 30-94-57": no provider's account has a sort code; "paid by bank
# transfer" may follow one), or a refund paid into it ("the IRS refund went to account ...":
# the taxpayer's bank account).
_POSSESSIVE = re.compile(r"[^\W\d_]+['’]s?\s")
_BANK_DETAILS = re.compile(r"\b(?:sort[\s\-]?code|routing|aba|iban|swift|bic|bsb|ifsc)\b", re.IGNORECASE)
_DETAILS_REACH = 90
_REFUND = re.compile(r"\brefund", re.IGNORECASE)


def _a_persons(text: str, service: re.Match[str], at: int, end: int) -> bool:
    if _POSSESSIVE.match(text, service.start()) or _REFUND.search(text, service.start(), at):
        return True
    return _BANK_DETAILS.search(text, end, end + _DETAILS_REACH) is not None


# (the wallets named as people and words are, Maya, Momo, Dana, rocket, only as a brand is
# written, and none as a person's: "Dana's account number is 0123456789 with GTBank" is
# Nigeria's ten-digit account, "rocket emoji aside, my account ..." names no wallet)
_E_WALLET = re.compile(
    r"\b(?:(?i:gcash|paymaya|paytm|phonepe|bkash|nagad|opay|palmpay|zalopay|ovo|gopay|m-?pesa)"
    r"|Maya|MoMo|Momo|MOMO|Dana|DANA|Rocket)\b(?!['’]s\b)"
)
_PHONES_DIGITS = re.compile(r"0\d{9,10}")
_WALLET_REACH = 120


def e_wallets_phone(text: str, m: re.Match[str]) -> bool:
    """An e-wallet's account is its owner's phone number ("GCash mpin forgotten, how to reset?
    account 0917 555 0142"): a phone's digits with the wallet's name in the clause around."""
    if _PHONES_DIGITS.fullmatch(re.sub(r"\D", "", m.group("num"))) is None:
        return False
    return _E_WALLET.search(text, max(0, m.start() - _WALLET_REACH), m.end() + _WALLET_REACH) is not None


_NZ_DASHED = re.compile(r"(?<![\d\-])(?:0[1-9]|[12]\d|3[0-8])-\d{4}-\d{7}-\d{2,3}(?![\d\-])")
_NZ_SPACED = re.compile(r"(?<!\d)(?<!\d )(?:0[1-9]|[12]\d|3[0-8]) \d{4} \d{7} \d{2,3}(?!\d)(?! \d)")
_NZ_WORDS = frozenset(
    {"account", "acct", "bank", "banking", "nz", "anz", "asb", "bnz", "westpac", "kiwibank", "tsb", "pay", "paid"}
    | {"payment", "deposit", "transfer", "bond", "rent", "salary", "wages", "stipend", "refund"}
)
_MICR_ON_US = re.compile(r"⑆\s?(\d(?:[ \-]?\d){4,16})\s?⑈")
# (a bank's number is 01xx to 11xx: "2024-11-004512" is a year, a month and a serial, a
# reference's or an invoice's; review rv5)
_IS_ACCOUNT = re.compile(r"(?<![\d\-])(?:0[1-9]|1[01])\d\d-\d{2}-\d{6}(?![\d\-])")
# Its words: the account's ("reikningur", "reikningsnúmer") or a bank's, not "banking",
# "bankruptcy" or "banknote".
_IS_WORDS = frozenset({"bank", "banki", "bankinn", "banka", "bankans", "bankanum", "bankareikningur"})
_BACS_ROW = re.compile(r"(?<![\d\-])\d{6}\s*[,;\t|]\s*\d{8}(?![\d\-.])")
_BACS_WORDS = frozenset({"bacs", "sortcode"})
_IFSC = re.compile(r"(?<![A-Za-z0-9])[A-Z]{4}0[A-Z0-9]{6}(?![A-Za-z0-9])")
_IFSC_REACH = 40
_INDIAN_ACCOUNT = re.compile(r"(?<![\w+\-])\d{9,18}(?![\w\-])")
_NOT_AN_ACCOUNT_BEFORE = re.compile(
    r"\b(?:call|phone|tel|mobile|cell|whatsapp|contact|helpline|micr|pin(?:\s*code)?|pincode|ph"
    # a payment's reference or a document's number ("NEFT done, UTR 402118765432, IFSC ...")
    r"|utr|rrn|ref|reference|txn|transaction|invoice|inv|order|cheque|chq|bill)\b[^\d\n]{0,12}$",
    re.IGNORECASE,
)
_HU_GIRO = re.compile(r"(?<![\d\-])(\d{8})([\- ])(\d{8})(?:\2(\d{8}))?(?![\d\-])")
_HU_WORDS = frozenset(
    {"számla", "szamla", "számlaszám", "szamlaszam", "bank", "account", "acct", "utald", "utalás", "utalas"}
    | {"deposit", "rent", "lakbér", "lakber", "transfer", "pay", "giro"}
)


# Account words of Chinese, Japanese and Korean, which run on into the number ("口座番号は
# 9766054", "普通 3898375", "银行账号是 0200...").
_CJK_ACCOUNT_RE = keyed(
    r"(?:口座番号|口座|普通預金|普通|当座|银行账号|银行账户|銀行帳號|账号|帳號|对公账户|账户|帳戶|계좌번호|계좌"
    # Hong Kong's 戶口 (in Taiwan's 戶口名簿 a household's register)
    r"|戶口(?!名簿|簿|本|登記|謄本))"
    # (the bank's and the branch's name may stand between: "退款账户（对公）：中国工商银行上海分行 1001 ...")
    r"(?:[^\d。\n]{0,12}?|[^\d。\n]{0,24}?(?:银行|銀行|分行|支行)[^\d。\n]{0,6}?)\s*"
    r"(?:は|：|:|是|는|은)?\s*\d(?:[\d\- ]{4,24})\d"
)
# A virtual account issued for one payment (가상계좌, 虚拟账户), and another thing's number
# named between the word and the number ("가상계좌 안내: 주문번호 2024061148291": the order's).
_CJK_VIRTUAL = re.compile(r"(?:가상|虚拟|虛擬|バーチャル)\s*$")
_CJK_ANOTHER_NUMBER = re.compile(r"주문|주문번호|결제|예약|订单|訂單|注文|予約|参考|參考|참조")


# 账号 and 帳號 are a login's account too: a user name glued to the digits ("帳號 s1120483@..."),
# or a mainland mobile number the login is ("账号 13800004827（手机号登录）").
_LOGIN_ACCOUNT = re.compile(r"(?:账号|帳號)[^\d\n]{0,12}?(?:[A-Za-z_.]\d|1[3-9]\d{9}(?!\d))")


def cjk_account(text: str) -> bool:
    """An account after a Chinese, Japanese or Korean account word (not a virtual one's, nor
    a login's)."""
    for m in _CJK_ACCOUNT_RE.finditer(text):
        if _CJK_VIRTUAL.search(text, max(0, m.start() - 4), m.start()) or _CJK_ANOTHER_NUMBER.search(m.group()):
            continue
        if _LOGIN_ACCOUNT.match(text, m.start()) and not m.group().startswith(("银行", "銀行")):
            continue
        return True
    return False


# Hong Kong's bank code, branch, account and suffix ("滙豐 004-482-917305-838"), beside a bank's
# or an account's word; a NACHA entry line (record type 6, a transaction code, the routing
# number, the account: "6 22 113000023 0048291736554 0000015000 ..."); a UK sort code spaced,
# then the account ("[sort_code+acc] 30 96 26 | 01842217").
_HK_ACCOUNT = re.compile(r"0(?<![\d\-].)\d{2}-\d{3}-\d{6}-\d{3}(?![\d\-])")
_HK_WORDS = re.compile(
    r"滙豐|匯豐|汇丰|恒生|中銀|中银|戶名|户名|戶口|户口|銀行|银行|hsbc|hang\s+seng|bank|account", re.IGNORECASE
)
_NACHA_ENTRY = re.compile(r"(?<![\d\-])6\s?[23][2-9]\s?(\d{9})\s?\d{4,17}(?![\d\-])")
_NACHA_WORDS = frozenset({"ach", "nacha", "batch", "entry", "payroll", "ppd", "ccd"})
_SORT_SPACED_ACCOUNT = re.compile(r"(?<![\d\-])\d{2}([ \-])\d{2}\1\d{2}\s*[|/,;]\s*\d{8}(?![\d\-])")


def _more_account_lines(text: str, words: frozenset[str], aba_valid: Callable[[str], bool]) -> bool:
    if _checked_forms(text):
        return True
    if _HK_ACCOUNT.search(text) and _HK_WORDS.search(text):
        return True
    if words & _NACHA_WORDS and any(aba_valid(m.group(1)) for m in _NACHA_ENTRY.finditer(text)):
        return True
    return "sort" in words and _SORT_SPACED_ACCOUNT.search(text) is not None


# Serbia's (and Montenegro's) account: a bank's three digits, the account's (up to thirteen, the
# zeros before it often left out: "160-4829173-89") and two check digits (ISO 7064 mod 97-10),
# dashed. Written in full (thirteen digits between) with its check, the form needs no word; the
# zeros left out, it is a part's or an order's number's shape too ("part number 123-456789-44":
# one in 97 passes by chance), so an account's or a payment's word must be in the text.
_RS_ACCOUNT = re.compile(r"(?<![\d\-])(\d{3})-(\d{1,13})-(\d{2})(?![\d\-])")
_RS_WORD = re.compile(
    r"ra[čc]un\w*|рачун\w*|uplat\w*|уплат\w*|teku[ćc]\w*|текућ\w*|[žz]iro|жиро|banc?k?a\b|банк\w*", re.IGNORECASE
)


def _rs_account(text: str) -> bool:
    for m in _RS_ACCOUNT.finditer(text):
        bank, account, check = m.groups()
        if len(account) < 6 or 98 - int(bank + account.zfill(13)) * 100 % 97 != int(check):
            continue
        if len(account) == 13 or _RS_WORD.search(text) is not None:
            return True
    return False


# Nigeria's NUBAN: ten digits whose last is a check over the bank's own code and the first nine
# (weights 3, 7, 3 ...), beside the bank's name, before or after ("Access 0693182751", "2218409370
# Zenith Bank", "2156083496 UBA"). The check needs the right bank: a phone of ten digits passes it
# for one bank in ten, and the bank's name must stand right beside it.
_NUBAN_BANKS = {
    "access": "044", "zenith": "057", "uba": "033", "gtb": "058", "gtbank": "058", "guaranty": "058",
    "firstbank": "011", "fidelity": "070", "union": "032", "sterling": "232", "wema": "035",
    "polaris": "076", "stanbic": "221", "ecobank": "050", "fcmb": "214", "keystone": "082",
    "heritage": "030", "providus": "101", "jaiz": "301",
}  # fmt: skip
_NUBAN_NAMES = (
    r"access|zenith|uba|gtb|gtbank|guaranty|first\s*bank|fidelity|union|sterling|wema|polaris|stanbic|ecobank|fcmb"
    r"|keystone|heritage|providus|jaiz"
)
# (only a bank's words or signs between: "Access 0693182751", "Zenith Bank a/c: 2218409370",
# "2156083496 UBA"; not "Union Station info line 2025550123", "Keystone Plumbing at 7175550121")
_NUBAN_BETWEEN = r"(?:[\s:;,.()#\-–—]|(?i:bank|plc|a/c|acc(?:oun)?t?|no|number|nuban|savings|current))*"
_NUBAN_NEAR = re.compile(
    r"\b(" + _NUBAN_NAMES + r")\b" + _NUBAN_BETWEEN + r"(?<!\d)(\d{10})(?!\d)"
    r"|(?<!\d)(\d{10})(?!\d)" + _NUBAN_BETWEEN + r"\b(" + _NUBAN_NAMES + r")\b",
    re.IGNORECASE,
)
_NUBAN_WEIGHTS = (3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3)


def _nuban(text: str) -> bool:
    for m in _NUBAN_NEAR.finditer(text):
        name = re.sub(r"\s", "", m.group(1) or m.group(4)).lower()
        number = m.group(2) or m.group(3)
        code = _NUBAN_BANKS.get(name, "")
        if not code or len(set(number)) <= 2:
            continue
        total = sum(int(c) * w for c, w in zip(code + number[:9], _NUBAN_WEIGHTS, strict=True))
        if (10 - total % 10) % 10 == int(number[9]):
            return True
    return False


def _checked_forms(text: str) -> bool:
    run = longest_digit_run(text)
    return (run >= 6 and "-" in text and _rs_account(text)) or (run >= 10 and _nuban(text))


def account_of_another_form(text: str, words: frozenset[str], aba_valid: Callable[[str], bool]) -> bool:
    """Whether the text holds an account in one of the forms above."""
    if _more_account_lines(text, words, aba_valid):
        return True
    # (a record's key may run the words together: "BankAccountDetails")
    if (words & _NZ_WORDS or "bank" in text.lower()) and (
        any(len(set(m.group().replace("-", ""))) > 2 for m in _NZ_DASHED.finditer(text)) or _NZ_SPACED.search(text)
    ):
        return True
    if "⑈" in text and any(len(set(m.group(1))) > 2 for m in _MICR_ON_US.finditer(text)):
        return True
    if (words & _IS_WORDS or any(w.startswith("reikning") for w in words)) and _IS_ACCOUNT.search(text):
        return True
    bacs = bool(words & _BACS_WORDS) or "sort code" in text.lower()
    if bacs and _BACS_ROW.search(text) is not None:
        return True
    run = longest_digit_run(text)  # (each form needs its digits in a row: 9 beside an IFSC, 8 in a giro)
    return (run >= 9 and _beside_an_ifsc(text)) or (run >= 8 and _hungarian_giro(text, words))


# Canada's three numbers: the branch's transit (five digits), the bank's institution (three),
# then the account under any word ("transit 00412, institution 815 (Desjardins), folio
# 0477183": Desjardins calls it a folio). The transit and the institution alone are the
# branch's and the bank's, no account (branch_codes.py).
_CA_INSTITUTION_WORDS = frozenset({"institution", "inst", "établissement", "etablissement", "institución"})
_CA_CODES = re.compile(
    r"\btransit\b[^\d\n]{0,16}\d{5}(?!\d)[^\d\n]{0,30}?\b(?:institution|inst|[ée]tablissement)\b[^\d\n]{0,16}"
    r"\d{3}(?!\d)|\b(?:institution|inst|[ée]tablissement)\b[^\d\n]{0,16}\d{3}(?!\d)[^\d\n]{0,30}?\btransit\b"
    r"[^\d\n]{0,16}\d{5}(?!\d)",
    re.IGNORECASE,
)
_CA_ACCOUNT_AFTER = re.compile(r"[^\d\n]{1,30}?(?<![\w+])(\d(?:[ \-]?\d){4,11})(?![\d\-/])")
_PHONE_WORD = re.compile(r"\b(?:phone|tel|call\w*|cell|mobile|fax|t[ée]l[ée]phone|appel\w*)\b", re.IGNORECASE)
_NANP_PHONE = re.compile(r"\d{3}[ \-]\d{3}[ \-]\d{4}")


def canadian_account(text: str, words: frozenset[str]) -> bool:
    if "transit" not in words or not words & _CA_INSTITUTION_WORDS:
        return False
    for m in _CA_CODES.finditer(text):
        after = _CA_ACCOUNT_AFTER.match(text, m.end())
        if after is None or _NANP_PHONE.fullmatch(after.group(1)) or _PHONE_WORD.search(text, m.end(), after.start(1)):
            continue  # (a branch's phone number after its codes)
        return True
    return False


def _beside_an_ifsc(text: str) -> bool:
    for code in _IFSC.finditer(text):
        start, end = max(0, code.start() - _IFSC_REACH), min(len(text), code.end() + _IFSC_REACH)
        for m in _INDIAN_ACCOUNT.finditer(text, start, end):
            if len(set(m.group())) > 2 and not _NOT_AN_ACCOUNT_BEFORE.search(text, max(0, m.start() - 30), m.start()):
                return True
    return False


def _hu_block_valid(block: str) -> bool:
    return sum(int(c) * w for c, w in zip(block, (9, 7, 3, 1, 9, 7, 3), strict=False)) % 10 == (10 - int(block[7])) % 10


def _hungarian_giro(text: str, words: frozenset[str]) -> bool:
    for m in _HU_GIRO.finditer(text):
        blocks = [b for b in m.group(1, 3, 4) if b]
        if m.group(2) == " " and not words & _HU_WORDS:
            continue  # (two numbers side by side, spaced, are a giro only where money is)
        if len(set("".join(blocks))) > 2 and all(_hu_block_valid(b) for b in blocks):
            return True
    return False


# Argentina's CBU (and CVU): 22 digits, a check digit for the bank and branch block and one
# for the account block.
_CBU_RE = re.compile(r"[0-9](?<![\d\-].)\d{21}(?![\d\-])")
_CBU_WORDS = frozenset({"cbu", "cvu", "cuenta", "banco", "transferencia", "alias"})


def _cbu_valid(d: str) -> bool:
    first = sum(int(c) * w for c, w in zip(d[:7], (7, 1, 3, 9, 7, 1, 3), strict=True))
    second = sum(int(c) * w for c, w in zip(d[8:21], (3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3), strict=True))
    return (10 - first % 10) % 10 == int(d[7]) and (10 - second % 10) % 10 == int(d[21])


_CLABE_RE = re.compile(r"(?<!\d)\d{18}(?!\d)")


def _clabe_valid(d: str) -> bool:
    total = sum(int(c) * (3, 7, 1)[i % 3] % 10 for i, c in enumerate(d[:17]))
    return (10 - total % 10) % 10 == int(d[17])


def cbu_or_clabe(text: str, words: frozenset[str]) -> bool:
    """Argentina's CBU beside a word of its own or of paying, Mexico's CLABE beside "clabe"."""
    if words & _CBU_WORDS and any(_cbu_valid(m.group()) for m in _CBU_RE.finditer(text)):
        return True
    return "clabe" in words and any(_clabe_valid(m.group()) for m in _CLABE_RE.finditer(text))
