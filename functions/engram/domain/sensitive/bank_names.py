"""An account number named by its bank's name, with no account word right before it: "BCA
8720391846 a/n CV Sumber Rejeki", "account at Bangkok Bank: 402-7-31958-6", "her bank is
Co-op Bank 0115 0348 9927 00", "Techcombank 19033827461015", "เข้าบัญชีกสิกร 043-8-27194-6".
People in Asia, Africa, the Middle East and Latin America name the bank, not the word
"account", when they pass an account on.

A bank's name is a name of the banks people there most often write (their short forms in
capitals only: "BNI", "SCB"), or any name with "Bank"/"Banco"/"Banque" in it ("Dutch-Bangla
Bank", "Bank Muscat", "Banco de Chile"). What may stand between the name and the number is
punctuation and an account's own little words ("a/c", "no.", "N°", "rek"), nothing else: a
bank's SWIFT, IFSC, routing or tax number ("Bancolombia NIT 890903938-8") has its own word
there. Numbers that are no account pass: a phone (a phone's word near it, a leading "+",
a toll-free prefix), a sum (groups of three after dots or commas, a currency), a date."""

from __future__ import annotations

import functools
import re

from engram.domain.sensitive.bank_account_forms import FROM_ONES_OWN

# Banks written as one word or an acronym (case as printed); names with "Bank", "Banco",
# "Banque" in them are found by their shape below.
_BANK_ACRONYMS = (
    r"BCA|BNI|BRI|BSI|BTN|CIMB(?:\s+Niaga)?|RHB|BDO|BPI|PNB|SBI|HDFC|ICICI|HBL|UBL|MCB|BRAC|KCB|NCBA|CRDB|NMB|GTB"
    r"|UBA|FNB|ADCB|FAB|QNB|NBK|KFH|SNB|BCP|BBVA|HSBC|ACB|BIDV|SCB|TTB|KBank|MB\s?Bank|TPBank|VPBank|OCB|BNP"
)
_BANK_ONE_WORD = (
    r"mandiri|maybank|permata|danamon|jenius|techcombank|vietcombank|vietinbank|agribank|sacombank|metrobank"
    r"|unionbank|landbank|security\s?bank|kasikorn(?:bank)?|krungthai|krungsri|stanbic|absa|nedbank|capitec"
    r"|ecobank|meezan|bancolombia|davivienda|banorte|citibanamex|banamex|bancoestado|interbank|scotiabank"
    r"|ita[úu]|bradesco|nubank|banreservas|bancomer|barclays|monzo|revolut|kotak|canara"
    r"|alrajhi|al\s+rajhi|emirates\s+nbd|mashreq|garanti|akbank|ziraat|halkbank|vak[ıi]fbank"
    r"|sampath|opay|moniepoint|kuda|gcash|gtbank"
    # Armenia's, Cambodia's, Laos', Myanmar's, Uzbekistan's and Mongolia's banks
    r"|ameriabank|acba|acleda|bcel|kbz|kapitalbank|khan\s?bank|golomt"
)
# Banks whose one-word name is also an everyday word or a place ("the y axis 0 10 20 30", "total
# equity", "Galicia"): only as printed, capitalised or in capitals. Maya is left out: a person's
# name before a phone in a list of contacts, and the wallet's number is a phone's (review rv5).
_BANK_ONE_WORD_AS_PRINTED = r"(?-i:Equity|EQUITY|Axis|AXIS|Zenith|ZENITH|Galicia|Mercantil|Santander|SANTANDER)"
# A name with a bank's word in it: one to three capitalised words then "Bank" ("Co-op Bank",
# "Dutch-Bangla Bank", "Bank of Ceylon"), or the word first ("Bank Muscat", "Banco de Chile").
_BANK_SHAPED = (
    r"(?:(?-i:[A-Z][\w&'’\-]*)\s+){1,3}(?-i:Bank)(?:\s+(?-i:[A-Z][\w\-]*))?"
    r"|(?-i:Bank|Banco|Banque|Banca)\s+(?:(?:of|de|do|da|del|du|di|the)\s+)?(?-i:[A-Z][\w\-]*)(?:\s+(?-i:[A-Z][\w\-]*))?"
)
# Thai banks' names, which run on into the words before them ("เข้าบัญชีกสิกร").
_THAI_BANKS = r"กสิกร(?:ไทย)?|ไทยพาณิชย์|กรุงไทย|กรุงเทพ|กรุงศรี(?:อยุธยา)?|ทหารไทย|ธนชาต|ออมสิน|ทีทีบี"

_BETWEEN = (
    r"(?:\s*(?:[:=#\-–]|\(|\)|,|(?i:a/c|acc(?:ount)?|acct|no\.?|number|nr\.?|n\.?\s?[°º]|rek(?:ening)?|nomor"
    r"|s[ốo]|cuenta|conta|account\s+(?:no\.?|number)|is|es|ni|cheque|savings|current|checking))){0,4}\s*"
)
_NUMBER = r"(?P<num>\d(?:[ \-.]?\d){7,21})(?![\d\-])(?![.,]\d)"
_NAMED_BANK = re.compile(
    r"(?<![\w\-])(?:(?-i:"
    + _BANK_ACRONYMS
    + r")|"
    + _BANK_ONE_WORD
    + r"|"
    + _BANK_ONE_WORD_AS_PRINTED
    + r"|"
    + _BANK_SHAPED
    + r")(?![\w\-])"
    + _BETWEEN
    + _NUMBER,
    re.IGNORECASE,
)
_THAI_NAMED = re.compile(r"(?:" + _THAI_BANKS + r"|บัญชี)[\u0e00-\u0e7f]{0,30}\s*" + _NUMBER)
# Korean, Chinese and Japanese banks' names and accounts' words, run on into the words around
# them ("카카오뱅크 3333-05-7281946 이지은", "신한 110-482-917304 박소연", "退款账户（对公）：中国工商银行
# 上海分行 1001 2293 ...", "三菱UFJ銀行 渋谷支店 普通 1234567"): a name with "은행", "뱅크", "银行" or
# "銀行" in it, or Korea's short names the bank is known by; no phone's word before the number
# ("카카오뱅크 고객센터 1599-3333", "工商银行客服电话 95588").
_EAST_ASIAN_BANKS = (
    r"[가-힣A-Za-z]{0,6}(?:은행|뱅크)|(?<![가-힣])(?:신한|농협|우체국|새마을금고|신협|수협)(?![가-힣])|계좌\s*번호|계좌"
    r"|[\u4e00-\u9fff]{0,8}(?:银行|銀行)(?:[\u4e00-\u9fffA-Za-z]{0,8}(?:分行|支行|支店))?"
    r"|(?:对公|收款|退款|银行|銀行|對公)(?:账户|账号|帳戶|帳號|賬戶)|口座番号|ゆうちょ"
)
_PHONE_IN_SCRIPT = (
    r"客服|电话|電話|热线|熱線|고객센터|전화|콜센터|상담|コールセンター|フリーダイヤル|お問い合わせ"
    # (nor another thing's number: an order's, a booking's, a parcel's, a member's, "가상계좌
    # 안내: 주문번호 2024061148291")
    r"|주문|예약|접수|송장|회원|订单|訂單|订购|单号|單號|会员|會員|注文|予約|伝票|会員"
)
_EAST_ASIAN_NAMED = re.compile(
    r"(?:" + _EAST_ASIAN_BANKS + r")(?:(?!" + _PHONE_IN_SCRIPT + r")[^\d\n]){0,24}?" + _NUMBER
)

# What says the number is a phone's or a sum's, near it.
_PHONE_WORDS = re.compile(
    r"\b(?:call|calls|phone|tel|telephone|hotline|helpline|care|contact|whatsapp|wa|sms|fax|dial|ring|customer"
    r"\s+service|cs|halo|line|toll[\s\-]?free|mobile|cell)\b",
    re.IGNORECASE,
)
_CURRENCY = re.compile(
    r"(?:\b(?:rp|idr|usd|eur|gbp|thb|vnd|php|myr|inr|rs|ngn|kes|ksh|zar|cop|clp|mxn|brl|ars|omr|aed|sar|egp)\.?"
    r"|[$€£¥₹₦₱฿₫])\s*$",
    re.IGNORECASE,
)
_CURRENCY_AFTER = re.compile(
    r"\s*(?:rp|idr|usd|eur|gbp|thb|vnd|php|myr|inr|ngn|kes|zar|cop|clp|mxn|brl|ars|omr|aed|sar|baht|bath|đồng"
    r"|dong|rupiah|pesos?|naira|shillings?|rand|reais|dirhams?|riyals?)\b",
    re.IGNORECASE,
)
_THOUSANDS = re.compile(r"\d{1,3}(?:([.,])\d{3})(?:\1\d{3})*")
_TOLL_FREE = re.compile(r"(?:1[\s\-]?[89]00|0800|0700|1300|800)\b")  # (Nigeria's 0700 lines)
# A phone written as phones are: a trunk 0 and an area or mobile code, then groups of three
# or four ("020 3872 0620", "0711 087 000", "02 8870 0700"), or France's pairs ("01 40 14 45
# 46"); ten or eleven digits. (An account in groups has more digits or other groups: "0045
# 1234 5678", "0412 3456 78".)
_PHONE_SHAPE = re.compile(r"0\d{1,4}(?:[ \-]\d{3,4}){2,3}|0\d(?: \d\d){4}")
# A phone's word right after the number ("0917 555 0142 (that's my mobile, linked to it)").
_PHONE_AFTER = re.compile(r"[^\n\d]{0,20}?\b(?:mobile|phone|cell|landline|tel|whatsapp|helpline|hotline)\b", re.I)


def phone_after_an_account_word(text: str, number: str, end: int) -> bool:
    """A number written as phones are, named a phone right after it, after an account's word
    ("BDO account 0917 555 0142 (that's my mobile, linked to it)")."""
    digits = sum(map(str.isdigit, number))
    return (
        10 <= digits <= 11 and _PHONE_SHAPE.fullmatch(number) is not None and _PHONE_AFTER.match(text, end) is not None
    )


_DATE = re.compile(r"(?:19|20)\d\d[\-./]?(?:0[1-9]|1[0-2])[\-./]?(?:0[1-9]|[12]\d|3[01])")


# A bank's own line by its prefix and length: South Africa's share-call 086x, India's 1860, the
# UK's non-geographic 03, Saudi Arabia's unified 9200 and South Africa's 087
# (review rv5: "Absa 0860 008 600", "FNB 087 575 9404").
_BANKS_LINES = (("086", 10), ("087", 10), ("1860", 11), ("03", 11), ("9200", 9))
# The line named after the number ("BBVA 91 224 94 26 call center").
_LINE_AFTER = re.compile(
    r"\W{0,3}(?:call\s*cent(?:er|re)|contact\s+cent(?:er|re)|customer\s+(?:care|service)|help\s*line|hot\s*line"
    r"|toll[\s\-]?free)\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?:19|20)\d\d")


def _a_list_of_numbers(number: str) -> bool:
    """Years one after another ("Santander 2019 2020 2021") or evenly spaced numbers ("axis 0 10 20
    30 40"): a list after a name, not one account written in groups."""
    groups = re.split(r"[ \-.]", number)
    if len(groups) >= 2 and all(_YEAR.fullmatch(g) for g in groups):
        return True
    if len(groups) < 3 or any(len(g) > 1 and g[0] == "0" for g in groups):
        return False
    steps = {int(b) - int(a) for a, b in zip(groups, groups[1:], strict=False)}
    return len(steps) == 1 and steps.pop() > 0


def _an_account_number(text: str, m: re.Match[str]) -> bool:
    number = m.group("num")
    digits = re.sub(r"\D", "", number)
    if len(set(digits)) <= 2 or _THOUSANDS.fullmatch(number) or _DATE.fullmatch(number):
        return False  # a template's zeros, a sum in thousands, a date
    if _a_list_of_numbers(number):
        return False
    if _TOLL_FREE.match(number) or text[max(0, m.start("num") - 1) : m.start("num")] == "+":
        return False
    if 10 <= len(digits) <= 11 and _PHONE_SHAPE.fullmatch(number):
        return False  # "Monzo 020 3872 0620": the bank's line
    if any(digits.startswith(p) and len(digits) == n for p, n in _BANKS_LINES) or _LINE_AFTER.match(text, m.end()):
        return False
    if _CURRENCY.search(text, max(0, m.start("num") - 6), m.start("num")) or _CURRENCY_AFTER.match(text, m.end()):
        return False
    # a phone's word between the bank's name and the number, or just before the name
    return _PHONE_WORDS.search(text, max(0, m.start() - 12), m.start("num")) is None


_LONG_NUMBER = re.compile(r"\d(?:[ \-.]?\d){7,21}")
# (a bank's name and what may follow it before the number fit in this many characters)
_NAME_REACH = 60


def account_at_named_bank(text: str) -> bool:
    """Whether the text holds an account number right after its bank's name. The names are
    looked for only shortly before a number long enough to be an account (the alternation
    tried at every character of a long message would cost more than the rest of the rule)."""
    thai = not text.isascii()
    for run in _LONG_NUMBER.finditer(text):
        start = max(0, run.start() - _NAME_REACH)
        end = min(len(text), run.end() + 30)
        if any(_an_account_number(text, m) for m in _NAMED_BANK.finditer(text, start, end)):
            return True
        if thai and any(
            _an_account_number(text, m)
            for named in (_THAI_NAMED, _EAST_ASIAN_NAMED)
            for m in named.finditer(text, start, end)
        ):
            return True
    return False


# A bill's, a utility's or a phone plan's words around an account, and no bank's word in the
# text: the account is the provider's customer account ("broadband bill £32.50, account
# BT-4471-2290", "DEWA account number 2004183920 for the electricity bill", "work sim: ...
# Telstra account 1840-2277"). So is an account word joined to its number by a dash, a
# reference's form ("customer_ref": "ACC-7781-22").
_BILL_WORDS = re.compile(
    r"\b(?:bills?|billing|electricity|electric|water|gas|broadband|internet|fib(?:re|er)|utility|utilities"
    r"|consumer\s+(?:no|number)|meter|subscription|e?sim|iccid|energy|telco|mobile\s+plan|phone\s+plan)\b",
    re.IGNORECASE,
)
BANK_WORDS = re.compile(
    r"\b(?:bank\w*|iban|routing|sort\s*code|bsb|transfer\w*|wire|deposit\w*|salary|payroll|savings|checking"
    r"|chequing|direct\s+debit|debit\s+order|standing\s+order|branch|swift|bic|ifsc|cuenta|konto|compte|conto)\b",
    re.IGNORECASE,
)
_REFERENCE_FORM = re.compile(r"[A-Za-z]{2,6}-\d")


@functools.lru_cache(maxsize=8)
def _names_a_bank(text: str) -> bool:
    # (asked once per text, not once per account in it: a long message of accounts beside
    # bill words searched itself whole for each, 14 s at 50,000 characters; review rv5)
    return BANK_WORDS.search(text) is not None


def a_services_account(text: str, start: int, number_start: int, end: int) -> bool:
    """Whether the account word at ``start`` and its number at ``number_start:end`` are a
    utility's, a phone plan's or a reference's (above), not a bank's."""
    if _names_a_bank(text) or FROM_ONES_OWN.search(text, max(0, start - 20), start):
        return False  # ("pay the electricity bill from my account ...": the payer's)
    # (the line around the account, looked for within the clause's reach only)
    line_start = text.rfind("\n", max(0, start - 100), start) + 1
    line_end = text.find("\n", end, end + 80)
    clause = text[max(line_start, start - 100) : min(len(text) if line_end < 0 else line_end, end + 80)]
    return bool(_BILL_WORDS.search(clause)) or _REFERENCE_FORM.match(text, max(0, number_start - 4), end) is not None


# A bank's own numbers: its correspondent account ("корр. счёт 30101…") and its БИК (a code).
_CORRESPONDENT = re.compile(r"(?:корр?\.?|к/)\s*$", re.IGNORECASE)
_RU_ACCOUNT = re.compile(r"(?<!\d)(?!30101)\d{5} ?\d{3} ?\d ?\d{4} ?\d{7}(?!\d)")


def a_banks_own(text: str, m: re.Match[str]) -> bool:
    """A bank's БИК with no client's account (20 digits, not a correspondent's 30101…) in the
    text, or its correspondent account: the bank's requisites, no person's account."""
    if m.group()[:3].lower() == "бик":
        return _RU_ACCOUNT.search(text) is None
    return _CORRESPONDENT.search(text, max(0, m.start() - 6), m.start()) is not None
