"""A code given in a call's or a chat's next turn: an agent asks for a PIN, a passcode or a
one-time code (to confirm it, read it out, choose one), and the customer's next turn says it
("AGENT: can you confirm the telephone PIN please. CUSTOMER: yeah its uh, 2258", "Agent:
please choose a new 6-digit PIN. Customer: done, i picked 031190"). The word and the value sit
in different turns, so the rules that read a clause find neither with the other.

Not one: a turn with no such number (a refusal, "done"), a year after "in" or "since", an
amount, a time, a longer number (an account's, a phone's), a turn that asks for anything else
(a reference, a card's last four)."""

from __future__ import annotations

import re

from engram.domain.sensitive.codes_other_languages import not_a_secret_near
from engram.domain.sensitive.secret_values import credential_like, pointer
from engram.domain.sensitive.secret_words import PASSWORD_WORD

_AGENT = (
    r"(?:agent|rep|representative|operator|advisor|adviser|csr|support|bank|agente|operador|op[ée]rateur|operatore"
    r"|berater|客服|坐席|客服人员|オペレーター|担当者|상담원|상담사)"
)
_CUSTOMER = r"(?:customer|caller|client|user|member|cliente|kunde|utente|klant|客户|客戶|顾客|顧客|お客様|고객)"
_TURNS = re.compile(
    # (the customer's turn on the same line or the next: a chat's transcript has one a line)
    # (Chinese, Japanese and Korean write a full-width colon: "客服：请问您收到的验证码是多少？")
    r"(?<![\w])"
    + _AGENT
    + r"\s*[:：](?P<asked>[^\n]{0,200}?)\s*(?<![\w])"
    + _CUSTOMER
    + r"\s*[:：](?P<said>[^\n]{0,160})",
    re.IGNORECASE,
)
_ASKS_FOR_A_CODE = re.compile(
    # (a PIN pad, a PIN reader is a device: "which PIN pad do you use?")
    r"(?<![\w])(?:pin(?!\s*(?:pad|reader|machine|terminal|entry\s+device))|pins|passcode|pass\s+code|security\s+code"
    r"|one[\s\-]time\s+code|otp|verification\s+code"
    r"|c[óo]digo|codice|nip|mot\s+de\s+passe|password|contrase[ñn]a|senha"
    # a code the agent sent ("I've sent a 6-digit code to the mobile ending 92. Could you read it back?")
    r"|(?<!reference\s)(?<!discount\s)(?<!promo\s)(?<!error\s)(?<!order\s)(?<!tracking\s)(?<!booking\s)code)(?![\w])"
    # (in scripts that write no space around a word: "请问您收到的验证码是多少？")
    r"|验证码|驗證碼|动态码|密码|密碼|認証コード|確認コード|暗証番号|パスワード|인증\s*번호|인증\s*코드|비밀번호",
    re.IGNORECASE,
)
# The agent asks for it: a question or a request ("can I take the passcode?", "please pick a
# new PIN", "read me the code please"); a turn that only says what happened to it or what
# will ("I've reset your password, you'll get an email", "your new card PIN will arrive by
# post") asks for nothing, and the customer's number is something else's.
_REQUEST = re.compile(
    r"[?¿？]|请|請|ください|주세요|(?<![\w])(?:please|pls|confirm|confirma|confirme|read|tell|give|say|enter|type|key\s+in|choose|pick"
    r"|provide|repeat|verify|need|take|dígame|digame|indique|nennen|geben|bitte|lisez|donnez|dites|per\s+favore"
    r"|por\s+favor|s['’]il\s+vous\s+pla[îi]t)(?![\w])",
    re.IGNORECASE,
)
_CODE = re.compile(
    # (a word of a script written without spaces may follow at once: "581204です")
    r"(?<![\w+:/.,\-])(?P<value>\d{4,8}|\d{3}[ \-]\d{3}|\d\d \d\d \d\d)"
    r"(?![^\W\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|[/:]|[.,]\d|[ \-]\d)"
    r"(?!\s*(?:%|€|\$|£|min\w*|hours?|days?|years?|times|digits|pounds?|euros?|dollars?)(?![\w]))"
    # (nor a counter or a unit written at once after it: a year, a date, a sum, a bus's number,
    # "お客様：2025年です", "고객: 2023년")
    r"(?![ \t]*[年月日時时分秒号號個个件円元원년월일시분개번回次人名歳岁点點％])",
    re.IGNORECASE,
)
_BEFORE_NOT_A_CODE = re.compile(
    r"(?<![\w])(?:in|since|from|at|on|by|until|till|year|born|ending|last)\s*$"
    # another number named just before ("my account number is 40871234")
    r"|(?<![\w])(?:ref|reference|order|account|acct|card|policy|member|membership|phone|mobile|postcode|zip|customer"
    r"|case|ticket|claim"
    # a place's, an error's, a device's number or a sum ("my extension is 4471", "I'm in flat
    # 2204", "the app shows error 5012", "I paid 2500 yesterday")
    r"|extension|ext|flat|apt|apartment|room|unit|suite|floor|house|error|model|paid|pay|spent|cost|costs|price"
    r"|owe|balance)(?![\w])[^\d]{0,16}$",
    re.IGNORECASE,
)
_AGENT_IN_SCRIPT = re.compile(r"客服|坐席|オペレーター|担当者|상담원|상담사")
_WORD_STEMS = frozenset(["agent", "rep", "operator", "advisor", "adviser", "csr", "support", "agente", "operador"])


def code_in_the_next_turn(text: str, words: frozenset[str]) -> bool:
    if ":" not in text and "：" not in text:
        return False
    if words.isdisjoint(_WORD_STEMS | {"bank", "opérateur", "operateur", "operatore", "berater"}) and (
        text.isascii() or _AGENT_IN_SCRIPT.search(text) is None
    ):
        return False
    for m in _TURNS.finditer(text):
        asked = m.group("asked")
        if _ASKS_FOR_A_CODE.search(asked) is None or _REQUEST.search(asked) is None:
            continue
        said = m.group("said")
        for v in _CODE.finditer(said):
            if _BEFORE_NOT_A_CODE.search(said, max(0, v.start() - 28), v.start()) is None:
                return True
    return False


# -- a group chat pasted as its lines ("[Linh] who has the code?", "Marcus: 771 062") ---------------
# One turn asks for a code or a password, or names it ("code for the hall is the same as last
# year" ... "which was?"), and a later turn by someone else is nothing but the value ("[Ville]
# Pesis!Joensuu88", "[Κώστας] 2-7-0-4", "[준호] cheer#2022 일걸"). The word and the value sit in
# different turns, in any language: the asking turn is read with the code and password words
# the other rules know.
_CHAT_TURN = re.compile(
    # (a phone's export opens each line with its date and time: "12/03/24, 14:02 - Linh: ...")
    r"^[ \t>*\-]*(?:\d[\d/.\-]*,?[ \t]+\d{1,2}:\d\d(?::\d\d)?(?:[ \t]*[ap]\.?m\.?)?[ \t]*[-–][ \t]*)?"
    r"(?:\[(?P<bracket>[^\]\n]{1,40})\][ \t]*(?:(?P<after>[^\W\d][^\n:：]{0,24}?)[ \t]*[:：])?"
    r"|(?P<named>[^\W\d][^\n:：\[\]]{0,24}?)[ \t]*[:：])[ \t]*(?P<said>[^\n]*)$",
    re.MULTILINE,
)
_ASKED_CODE = re.compile(
    r"(?<![\w])(?:codes?|pins?(?!\s*(?:pad|reader|machine|terminal|entry))|passcode|combo|combination|kod\w*|k[óo]d\w*|kode\w*|koodi\w*|codice|c[óo]digo|код\w*"
    r"|κωδικ\w*|šifr\w*|sifr\w*|[şs]ifre\w*)(?![\w])"
    r"|코드|비번|비밀번호|密码|密碼|暗証|コード|パスワード|קוד|סיסמ|كود|رمز|کد|รหัส|कोड|पिन|পিন|কোড",
    re.IGNORECASE,
)
_ASKED_PASSWORD = re.compile(
    PASSWORD_WORD + r"|(?<![\w])(?:salasana\w*|lozink\w*|лозинк\w*|šifr\w*|шифр\w*|парол\w*|jelsz\w*|parol\w*"
    r"|κωδικ\w*|kata\s+sandi|m[ậa]t\s+kh[ẩa]u|mk|pw)(?![\w])|비번|비밀번호|密码|密碼|パスワード|סיסמ|كلمة\s*(?:ال)?(?:سر|مرور)"
    r"|پسورد|पासवर्ड|รหัส",
    re.IGNORECASE,
)
# (a question in any script, Greek's ";" and Arabic's "؟" too, or a request; a ";" typed for
# Greek's question mark only in Greek: it ends a log's or a program's line too, "[compile] code
# generation done;")
_ASKS = re.compile(
    r"[?¿？؟\u037e]\s*$|[?¿？؟]|(?<![\w])(?:pls|plz|please|send|anyone|whoever|who\s+has|what['’]?s|which|remind)(?![\w])",
    re.IGNORECASE,
)
_GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
# A number asked for that is no code: a count, a price, a year, a room, a postal or promo code.
_ASKED_OTHER = re.compile(
    r"(?<![\w])(?:how\s+many|how\s+much|lines?|price|cost|year|when|time|room|postal|post|zip|area|promo|discount"
    r"|voucher|coupon|referral|gift|tracking|order|booking|reference|ref|error|status|invoice|phone|number\s+of"
    r"|dress|tax|bus|flight|seat|table|reset|policy|manager|rules|requirements|hint|length|expiry"
    # (a country's dialling code, a course's, a module's, a customer's, a colour's, an event's, a
    # product's or a bank branch's code, a program's source: asked for the same way, none opens anything)
    r"|dial(?:l?ing)?|country|course|module|class|subject|exam|customer|client|colou?r|event|product|item|part|sku"
    r"|stock|hs|sort|branch|swift|bic|ifsc|tariff|commodity|language|source|generation|qr|bar)(?![\w])",
    re.IGNORECASE,
)
_CHAT_CODE = re.compile(r"(?:\d{4,8}|\d{3}[ \-]\d{3}|\d\d[ \-]\d\d[ \-]\d\d|\d(?:[ \-]\d){2,7})#?")
_LOOK_BACK_TURNS = 2


def _turns(text: str) -> list[tuple[str, str]]:
    out = []
    for m in _CHAT_TURN.finditer(text):
        speaker = m.group("after") or m.group("bracket") or m.group("named") or ""
        out.append((speaker.strip().lower(), m.group("said").strip()))
    return out


def code_in_a_chat_reply(text: str) -> bool:
    if "\n" not in text:
        return False
    turns = _turns(text)
    for i in range(1, len(turns)):
        speaker, said = turns[i]
        value = _chat_value(said)
        if value is None:
            continue
        before = turns[max(0, i - _LOOK_BACK_TURNS) : i]
        if not any(s != speaker for s, _ in before) or not any(_asks(b) for _, b in before):
            continue
        asked = " ".join(b for _, b in before)
        pattern = _ASKED_CODE if value[0] == "code" else _ASKED_PASSWORD
        # (the other number's word close to the code's: "postal code", "lines of code", "what
        # year was the code changed"; not "sent a code to the treasurer phone")
        if any(
            _ASKED_OTHER.search(asked, max(0, m.start() - 40), m.end() + 12) is None
            and not not_a_secret_near(asked, m.start(), m.end())
            for m in pattern.finditer(asked)
        ):
            return True
    return False


def _asks(said: str) -> bool:
    if _ASKS.search(said) is not None:
        return True
    return said.rstrip().endswith(";") and _GREEK.search(said) is not None


def _chat_value(said: str) -> tuple[str, str] | None:
    """("code", "7710") or ("password", "Pesis!Joensuu88"), or ``None`` for a turn saying anything else."""
    m = _CHAT_CODE.fullmatch(said.rstrip(".!"))
    if m is not None:
        digits = re.sub(r"\D", "", said)
        return (
            ("code", digits)
            if len(set(digits) - {"0"}) > 1 and (len(digits) >= 4 or not digits.isdigit() or " " in said or "-" in said)
            else None
        )
    tokens = said.split()
    if not tokens or len(tokens) > 3 or any(c.isdigit() for t in tokens[1:] for c in t):
        return None
    token = tokens[0].strip("\"'`“”«»")
    return ("password", token) if credential_like(token) and not pointer(token) and "@" not in token else None
