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
