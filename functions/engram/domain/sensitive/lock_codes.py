"""Codes of what they lock: safes, lockboxes, combinations, intercoms, alarm panels, phone
unlock codes, in eight languages and Japanese, Chinese and Korean."""

from __future__ import annotations

import re

from engram.domain.sensitive.categories import word_spans
from engram.domain.sensitive.cjk_passwords import CJK_COUNTER
from engram.domain.sensitive.codes_other_languages import not_a_secret_near
from engram.domain.sensitive.made_up_locks import made_up_place
from engram.domain.sensitive.named_codes import BOARD, LAST_DIGITS, a_key_size_after, postal_pin_code
from engram.domain.sensitive.prefilter import keyed
from engram.domain.sensitive.secret_words import FILED_AS

# A lock, safe, alarm, intercom or phone-unlock code, in the languages above: the thing it
# opens, a few words, a separator that says "is" or "opens with", then the digits (often
# spaced or dashed: "5-2-7-1", "5 8 3 0"). Bare "code" is not enough (area, zip, error
# codes); the thing locked is.
_LOCKED = (
    r"combo|combination|kombination|combinaison|combinaci[óo]n|combina[çc][ãa]o|combinazione|safe|tresor|coffre(?:-fort)?"
    # a vault, a deposit box, a car radio's anti-theft code ("vault code for the jewellery: 28-04-61"),
    # with the code named (HashiCorp Vault's "listening on 8200", a box's "rental is 4500" are none)
    r"|(?:vault|strongbox|(?:safe\s+)?deposit\s+box)(?=[^.\n!?;]{0,40}?\b(?:code|combo|combination|pin)\b)"
    r"|(?:car\s+)?radio(?=\s+(?:code|pin)\b)"
    r"|caja\s+fuerte|cofre|cassaforte|lock\s?box|key\s?box|key[\s\-]?safe|schl[üu]sselkasten|schl[üu]sselbox|padlock"
    r"|vorh[äa]ngeschloss|zahlenschloss|cadenas|candado|cadeado|lucchetto|alarmanlage|alarm\s+panel|intercom|interphone"
    r"|domofon\w*|citofono|portero|interfone|gegensprechanlage|entsperrcode|sperrcode|entsperr-?pin|pinkod(?:en)?"
    r"|pinkode(?:n)?|portkod(?:en)?|portkode(?:n)?|d[øo]rkode(?:n)?|ovikoodi|porttikoodi|locker(?=[^.\n!?;]{0,40}?\b(?:code|combo|combination|pin)\b)|lock\s+screen"
    r"|c[óo]digo\s+d[oa]\s+(?:port[ãa]o|porta|cofre|alarme|pr[ée]dio)|code\s+de\s+la\s+porte(?:\s+d['’]entr[ée]e)?"
    # German fuses the thing and the code ("Tresorcode", "Garagencode", "Alarmcode")
    r"|(?:tresor|safe|schloss|zahlenschloss|garagen|garagentor|alarm|haustür|haustuer|briefkasten)code"
    # keypads, boxes, buzzers, kiosks, alarms, doors and phones that open with a code
    r"|key\s?pad|cash\s?box|buzzer|kiosk|alarm|(?:phone|screen|tablet|ipad|laptop)\s+unlock|(?:front|back|side|garage"
    r"|storage|office|building|house|main|entrance|gym|pool)\s+door|door|gate|garage|storage\s+unit|mailbox|letterbox"
    r"|haust[üu]r|t[üu]r|tor|deur|d[øo]r|dörr|porte|portail|puerta|porta|port[ãa]o|drzwi|brama|vchod\w*|dve[řr]\w*"
    # a lock named by what it locks ("bike lock 3-9-0-6", "luggage lock is 3 7 7")
    # (a realtor's lockbox, Supra's, whose code opens its shackle: "the realtor supra is 2287")
    r"|(?<!toyota\s)supra(?![\w\-])(?!\s+(?:mk|gt|turbo|engine|car)\b)"
    # a combination lock in Dutch, Swahili, Hausa, Tagalog, Hungarian, Polish, Indonesian and
    # Turkish (not "kilit taşı", a keystone), and the "combi" of a dial lock (not a boiler's or an oven's)
    r"|cijferslot|hangslot|fietsslot|kufuli|kulle|kandado|lakat\w*|k[łl][óo]dk\w*|gembok|kilit\w*(?!\s+ta[şs][ıi])"
    r"|combi(?![\s\-]+(?:boiler|oven|steamer|microwave|van|ticket|deal)s?\b)"
    r"|(?:bike|bicycle|cycle|luggage|suitcase|gym|cable|chain|combination|combo|combi|master|dial|shed|trunk|u|fridge|freezer|cabinet"
    r"|cupboard|drawer|medicine|drug|dispensary|briefcase|gun|tool\s?box|window|filing)[\s\-]?lock"
)
# (a word of them must be a word: "customer 88213", "engineer 4471", "photo 2281" end in one;
# "enter" and "type" say the digits are keyed in: "Kiosk unlock: hold the logo 5s, enter 271828")
_LOCK_SEP = (
    r"(?::|=|–|—|(?-i:(?<![A-Z]))-|,?\s*(?<![\w])(?:it['’]?s|is(?:\s+set\s+to)?|set\s+to|was|ist|lautet|geht\s+mit|mit"
    r"|är|er|é|es|est|c['’]est|je|to|with|opens\s+with|on|enter|type|key\s+in|punch\s+in|ay|ni|ay\s+ang)"
    # (or in brackets of its own: "la clave vieja del candado (2580) todavía abre")
    r"|\((?=\s*\d[\d \-]{2,10}\)))"
)
_LOCK_CODE_RE = re.compile(
    # (an aside in brackets may stand between: "real safe in the props room (not the stage one!): 18-33-02")
    r"(?<![\w])(?:" + _LOCKED + r")(?![\w])(?:[^.\n!?;(]|\([^()\n\d]{0,40}\)|\((?![^()\n\d]{0,40}\))){0,40}?"
    r"(?:(?<![\w])(?:code|combo|pin|kod|koden|kode|c[óo]digo|codice)(?![\w])\s*"
    + _LOCK_SEP
    + r"?|\s*"
    + _LOCK_SEP
    # no separator when the code ends as a keypad's does, with "#" ("apartment door 4471#"),
    # or is dialled digit by digit ("bike lock 3-9-0-6")
    + r"|\s+(?=\d[\d ]{2,10}#)|\s+(?=\d(?:[ \-]\d){2,7}(?![\w\-/:])))\s*"
    # (a combination's numbers may have two digits: "combo at the bank: 24 - 11 - 37")
    # (a phone number's groups run on past a code's eight digits: "kufuli ni 0712 345 678")
    r"(?P<value>\d(?:[ \-]?\d){2,7}|\d{1,3}[A-Za-z]\d{1,4}|\d{1,2}(?:\s+-\s+\d{1,2}){2,3})(?![\w/:]|[.,]\d|[ \-]\d)"
    r"(?!\s*(?:mg|kg|g|ml|l|cm|mm|km|m|%|€|\$|£|usd|eur|gbp|cents?|euros?|dollars?|pounds?|years?|days?|hours?"
    r"|minutes?|min|times|people|pm|am|h|uhr)\b)",
    re.IGNORECASE,
)
# (doors and gates too: "ドアのコードは4471です", "大门密码是2580"; "部門コード", a department's
# code, is no gate's, nor "门诊号", an outpatient's number; a counter after the number counts:
# "金庫は3000万円")
_CJK_LOCK_CODE_RE = re.compile(
    r"(?:オートロック|暗証|金庫|ロッカー|ダイヤル|キーボックス|门禁|門禁|密码锁|密碼鎖|保险箱|保险柜|保險箱|保險櫃|金库|도어락|현관|금고|대문|공동현관"
    r"|ドア|玄関|南京錠|(?<![部専入名関水校])門(?![牌號号診诊])|(?<![部专入关水校])门(?![牌號号诊診])|사물함|자물쇠|번호키)[^\d。\n]{0,16}?"
    r"(?:番号|コード|码|碼|密码|密碼|비밀번호|비번|번호)?\s*(?:は|：|:|是|는|은)?\s*(?P<value>\d{3,8})(?!\d)(?!"
    + CJK_COUNTER
    + ")"
)


# A lock's code in Hindi: the thing, its code word, then the digits ("लॉकर का कोड 19-04-77 है",
# "तिजोरी का पिन 4471"); its number ("लॉकर नंबर 214") says which one, not how it opens.
_HINDI_LOCK_CODE_RE = re.compile(
    r"(?:लॉकर|लाकर|तिजोरी|ताले|ताला|दरवाज़े|दरवाजे|गेट|अलमारी)\s*(?:का|की|के)?\s*(?:कोड|पिन|पासवर्ड|कॉम्बिनेशन)"
    r"\s*(?:है|:|-)?\s*(?P<value>\d{2}[\- ]\d{2}[\- ]\d{2}|\d{3,8}|\d(?:[ \-]\d){2,7})(?![\d\-])"
)


# One-time codes in Chinese, Japanese and Korean, which run on into their value.
_CJK_ONE_TIME_CODE_RE = re.compile(
    r"(?:验证码|驗證碼|校验码|动态码|動態碼|認証コード|確認コード|認証番号|ワンタイムパスワード|인증\s*번호|인증\s*코드)"
    r"[^\d。\n]{0,6}?(?P<value>\d{4,8}|\d{3} \d{3})(?!\d)"
)


# A Korean bank's security card ("보안카드"): a numbered cell and its code ("보안카드 번호 07번: 4829",
# "보안카드 35번 1842"); Japan's "乱数表" the same. Its number alone, a hotline or a year is none.
_SECURITY_CARD_RE = re.compile(
    r"(?:보안\s*카드|乱数表)(?:\s*번호)?\s*(?:no\.?\s*)?\d{1,2}\s*(?:번|番)\s*(?:[:：]|은|는|의|は)?\s*(?P<value>\d{2,4})(?![\d\-])"
)


# The code first, then what it opens ("0419 is the code for the lockbox at the lake house").
_REVERSED_LOCK_RE = re.compile(
    r"(?<![\w.,/:\-])(?P<value>\d{4,8}#?|\d(?: \d){3,7})\s+(?:is|was|opens)\s+(?:the|my|our|your)\s+"
    r"(?:[\w'’\-]+\s+){0,2}?"
    r"(?:code|combo|combination|pin)\s+(?:for|to|of|on)\s+(?:the\s+|my\s+|our\s+)?(?:[\w'’\-]+\s+){0,3}?"
    r"(?:door|gate|safe|lock\s?box|lock|padlock|locker|alarm|garage|shed|keypad|key\s?safe|building|storage|mailbox"
    r"|cage|entrance|flat|apartment|house|office)\b",
    re.IGNORECASE,
)


# A lock's code written right after the lock with nothing between ("lockbox 5531 unit b", "keypad
# 3141 (pi, obviously)"): these things have no number of their own that people write so; the
# code is four digits or more ("lockbox 2 by the shed" says which one), not a count or a model.
_BARE_LOCK_RE = keyed(
    r"(?<![\w])(?:lock\s?box|key\s?box|key[\s\-]?safe|key\s?pad|padlock|supra|(?:combi|combo|combination|dial)\s+lock)"
    r"\s+(?P<value>\d{4,8}#?)(?![\w\-/:#*]|[.,]\d)(?!\s*(?:pcs|pieces|units|series|models?|packs?|sets?|x)\b)",
    re.IGNORECASE,
)
# The code first, then what it opens, after "for", "on" or "at" ("its 7 7 1 3 for the back
# gate", "0 6 0 6 on the little keypad"), or after a code's word ("use code 46 19 at the side
# entrance"). Digit by digit, or after a code's word: "it's 2500 for the gate" is a price.
_CODE_FOR_THE_LOCK_RE = keyed(
    r"(?:(?<![\w])(?:code|pin|combo|combination|passcode)\s+(?:is\s+|was\s+)?(?P<named>\d{4,8}#?|\d\d \d\d(?: \d\d)?)"
    r"|(?<![\w.,/:\-#])(?P<spaced>\d(?:[ \-]\d){3,7}#?))"
    r"\s+(?:for|at|on|to|into|opens)\s+(?:the\s+|our\s+|my\s+|your\s+|a\s+)?(?:[\w'’\-]+\s+){0,3}?"
    r"(?:door|gate|entrance|entry|safe|lock\s?box|key\s?box|key\s?safe|padlock|lock|locker|alarm|garage|shed|keypad"
    r"|cage|storage|mailbox|building|cabinet|cupboard|vault)s?(?![\w])",
    re.IGNORECASE,
)
# A keypad's code is keyed in and ended with "#": "the staff room is 2468#", "its 5580#".
# (not a phone menu's or a carrier's code, "*100#", "press 1#": four digits at least, no "*")
_HASH_ENDED_RE = re.compile(r"(?<![\w*#])(?P<value>\d{4,8}#)(?![\w#*])")
_HASH_SLOT = re.compile(r"(?:(?<![\w])(?:is|was|it['’]?s|its|enter|type|punch|code)|:)\s*$", re.IGNORECASE)


# A keyboard's keys, not a lock's code: "Turn on Num Lock first, then the arrow keys are 8 4 6 2
# on the keypad" names keys to press, and the keypad is the keyboard's.
_KEYBOARD = re.compile(r"(?<![\w])(?:num|caps|scroll)\s*lock|arrow\s+keys|num\s*pad", re.IGNORECASE)


def _lock_code_first(text: str) -> bool:
    if _KEYBOARD.search(text):
        return False
    hashed = (m for m in _HASH_ENDED_RE.finditer(text) if _HASH_SLOT.search(text, max(0, m.start() - 8), m.start()))
    for m in (*_BARE_LOCK_RE.finditer(text), *_CODE_FOR_THE_LOCK_RE.finditer(text), *hashed):
        value = next(v for v in m.groups() if v is not None)
        digits = re.sub(r"\D", "", value)
        if (
            len(set(digits) - {"0"})
            and not _YEAR_AFTER.match(text, m.end())
            and not not_a_secret_near(text, m.start(), m.end())
        ):
            return True
    return False


def lock_code(text: str) -> bool:
    return not made_up_place(text) and _lock_code(text)


# A lock's code as a setting, a record's field or an element ("door_code=4471", '{"door_code":
# "4471"}', "GATE_CODE: 5581#", "<alarm_pin>2207</alarm_pin>", "frontDoorCode = 1190").
_LOCK_FIELD_RE = keyed(
    r"(?<![\w])[<\"']?(?:(?:front|back|side|main|office|house|home|building|garage|storage|apartment|flat)[_\-]?)?"
    r"(?:door|gate|alarm|keypad|lockbox|keysafe|key_safe|safe|locker|entry|intercom|buzzer|padlock|garage|shed)"
    r"[_\-]?(?:code|pin|combo|combination|passcode)s?(?:[\"']?\s*(?:=>|[:=])|>)\s*[\"']?"
    r"(?P<value>[#*]?\d{3,8}#?|\d{3}[ \-]\d{3})(?![\w\-./:])",
    re.IGNORECASE,
)


def _lock_code(text: str) -> bool:
    if any(len(set(m.group("value")) - {"0", "#", "*"}) > 1 for m in _LOCK_FIELD_RE.finditer(text)):
        return True  # (a reset or a placeholder, "door_code=0000", is none)
    if _REVERSED_LOCK_RE.search(text) or _lock_code_first(text):
        return True
    cjk = () if text.isascii() else (*_CJK_LOCK_CODE_RE.finditer(text), *_CJK_ONE_TIME_CODE_RE.finditer(text))
    if not text.isascii():
        cjk = (*cjk, *_HINDI_LOCK_CODE_RE.finditer(text), *_SECURITY_CARD_RE.finditer(text))
    # "set to 0-0-0" is the reset, not the code; "the alarm is 0630" and "the gate at 1430" are times
    # "código postal do portão: 4050-123": the postal code of the place the gate is at
    if any(
        set(m.group("value")) - {"0", " ", "-"}
        and not _a_time(m)
        and not not_a_secret_near(text, m.start(), m.start())
        and not _another_number(m)
        and not _bracketed_year(m)
        for m in (*_locked(text), *cjk)
    ):
        return True
    if _PIN_WORD.search(text) is not None and any(not _not_a_code(m) for m in _PIN_NEAR_RE.finditer(text)):
        return True
    return any(set(m.group("value")) - {"0", " ", "-"} for m in _FAR_COMBINATION_RE.finditer(text))


# A combination said after a longer description of what it opens than _LOCKED allows ("the
# combination to the music room cabinet with the rented violins is 5-20-35"): a dial's two or
# three numbers of one or two digits, dashed, after "is" (not "a combination of two teams").
_FAR_COMBINATION_RE = keyed(
    r"(?<![\w])(?:combination|combo|kombination|combinaison|combinaci[óo]n|combina[çc][ãa]o|combinazione)(?![\w])"
    r"(?!\s+(?:of|de|di|aus|van|från)\s)[^.\n!?;:]{0,90}?\s(?:is|was|ist|est|es|é|è)\s+(?P<value>\d{1,2}(?:\s?[\-–]\s?\d{1,2}){2,3})(?![\w/:\-]|[.,]\d)",
    re.IGNORECASE,
)


# The first word of every phrase of _LOCKED: the phrase is tried only where one of them is.
_LOCK_STEMS = frozenset(
    [
        *("combo", "combination", "kombination", "combinaison", "combinación", "combinacion", "combinação"),
        *("combinacao", "combinazione", "safe", "tresor", "coffre", "caja", "cofre", "cassaforte", "lock", "lockbox"),
        *("key", "keybox", "schlüsselkasten", "schlusselkasten", "schlüsselbox", "schlusselbox", "padlock"),
        *("vorhängeschloss", "vorhangeschloss", "zahlenschloss", "cadenas", "candado", "cadeado", "lucchetto"),
        *("alarmanlage", "alarm", "intercom", "interphone", "citofono", "portero", "interfone", "gegensprechanlage"),
        *("entsperrcode", "sperrcode", "entsperr", "pinkod", "pinkoden", "pinkode", "portkod", "portkoden"),
        *("portkode", "portkoden", "dørkode", "dørkoden", "dorkode", "dorkoden", "ovikoodi", "porttikoodi"),
        *("locker", "código", "codigo", "code", "keypad", "cash", "cashbox", "buzzer", "kiosk", "phone", "screen"),
        *("tablet", "ipad", "laptop", "front", "back", "side", "garage", "storage", "office", "building", "house"),
        *("main", "entrance", "gym", "pool", "door", "gate", "mailbox", "letterbox", "haustür", "haustur", "tür"),
        *("tur", "tor", "deur", "dør", "dor", "dörr", "porte", "portail", "puerta", "porta", "portão", "portao"),
        *("bike", "bicycle", "cycle", "luggage", "suitcase", "cable", "chain", "shed", "trunk", "u", "fridge"),
        *("freezer", "cabinet", "cupboard", "drawer", "medicine", "drug", "dispensary", "briefcase", "gun", "tool"),
        *("toolbox", "window", "filing", "vault", "strongbox", "deposit", "radio", "car", "keysafe"),
        *("supra", "combi", "master", "dial", "cijferslot", "hangslot", "fietsslot", "kufuli", "kulle", "kandado"),
        *("gembok",),
        *("drzwi", "brama", "tresorcode", "safecode", "schlosscode", "zahlenschlosscode", "garagencode"),
        *("garagentorcode", "alarmcode", "haustürcode", "haustuercode", "briefkastencode"),
    ]
)
_LOCK_PREFIXES = ("domofon", "vchod", "dveř", "dver", "lakat", "kłódk", "klodk", "kilit")


def _locked(text: str) -> list[re.Match[str]]:
    out = []
    for at, _, _ in word_spans(text, lambda word: word in _LOCK_STEMS or word.startswith(_LOCK_PREFIXES)):
        m = _LOCK_CODE_RE.match(text, at)
        if m is not None and not _its_own_number(text[m.start() : m.start("value")]):
            out.append(m)
    return out


# The lock's own number is which one it is, not how it opens ("the locker number is 214",
# "Schließfach Nr. 12", "gate no. 14"), unless a code word came first ("locker code no. 2291").
_ITS_NUMBER = re.compile(
    r"(?<![\w])(?:number|no\.?|nr\.?|nummer|numéro|numero|número|numer|numara|#)\s*(?:is|was|:|=|ist|est|es|är|er|je)?\s*$",
    re.IGNORECASE,
)
_CODE_WORD = re.compile(
    r"(?<![\w])(?:code|combo|combination|pin|kod|koden|kode|c[óo]digo|codice)(?![\w])", re.IGNORECASE
)


def _its_own_number(before_value: str) -> bool:
    return _ITS_NUMBER.search(before_value) is not None and _CODE_WORD.search(before_value) is None


_PIN_WORD = re.compile(
    r"pin|geheimzahl|geheimnummer|пин|пін|otp|passcode|verification|2fa|mfa|one.time|код|暗証|الرقم|رمز|كود|קוד|סיסמ|पिन"
    r"|puk|host\s+key|token|kodu|v[ée]rification|verifica|verificatie|verifiering|bekr|vahvistus|weryfikac|ověřovací"
    r"|(?-i:TAN|NIP|BLIK)|(?-i:TAC)(?![^\d\n]{0,12}\d{8}(?!\d))",  # (not an IMEI's type code, eight digits)
    re.I,
)


# A PIN or a one-time code a few words after its word, in any grammar ("пин-код новой карты
# 7741", "OTP aaya hai 662 091", "رمز التحقق اللي وصلني 918 442"): the words are strong
# enough that a number of four to eight digits close by is the code.
_PIN_NEAR_RE = re.compile(
    r"(?<![\w])(?:pin(?:[\s\-]?(?:code|kod|kód|koodi|nummer|numero|número))?|geheimzahl|geheimnummer|пин(?:-?код)?|пін(?:-?код)?|otp|passcode"
    r"|verification\s+code|2fa\s+code|one[\s\-]time\s+(?:code|password|pin)|код\s+подтверждения|暗証番号"
    # a mobile wallet's PIN (GCash's or JazzCash's MPIN), a SIM's unlock key, a meeting's host
    # key, a 2FA text's code, a bank's token ("token do nubank: 55 71 93", "token de BBVA ...")
    r"|m-?pin|puk2?(?:[\s\-]?code)?|host\s+key|(?:2fa|mfa|two[\s\-]factor)\s+(?:text|sms|message|e-?mail)[\s,:\-–]+code"
    r"|token(?=\s+(?:do|da|de|del|du|from|von|of)\s+[^\W\d]+[\s:]+\d)"
    # a verification code in more languages (Turkish, Spanish, Portuguese, French, Italian,
    # Dutch, Swedish, Danish, Norwegian, Finnish, Polish, Czech)
    r"|doğrulama\s+kodu|dogrulama\s+kodu|onay\s+kodu|güvenlik\s+kodu|c[óo]digo\s+de\s+verifica(?:ci[óo]n|[çc][ãa]o)"
    r"|code\s+de\s+v[ée]rification|codice\s+di\s+verifica|verificatiecode|verifieringskod(?:en)?"
    r"|bekr[æa]ftelseskode(?:n)?|bekreftelseskode(?:n)?|vahvistuskoodi|kod\s+weryfikacyjny|ověřovací\s+kód"
    r"|الرقم\s*السري|رمز\s*التحقق|كود\s*التحقق|رمز\s*التفعيل|رمز\s*سري|קוד\s*(?:אימות|סודי)|סיסמה"
    r"|(?:رمز|كود)\s*(?:البطاقة|الصراف|الدخول|الباب|البوابة)"
    # Hindi's PIN; a bank's transaction number (TAN, pushTAN, mTAN), Mexico's and Quebec's
    # PIN (NIP), Poland's BLIK code: upper case, since "tan", "nip" and "blik" are words too
    # (and Malaysia's banks' transaction code, TAC: "TAC 881204 dari Maybank")
    r"|पिन|(?-i:(?:push|sms|chip|photo|m|i)?TAN|NIP|BLIK|TAC(?![^\d\n]{0,12}\d{8}(?!\d))))(?![\w])"
    r"(?P<gap>(?:[\s,:\-–]+[^\s\d,.;:!?]{1,20}){0,4}?)[\s,:\-–]*"
    # (a PIN or a code as people group it: "903 514", "55 71 93", "70 81", "5 8 3 0")
    r"(?P<value>\d{3}[ \-]\d{3}|\d\d \d\d(?: \d\d)?|\d{4,8}|\d(?: \d){3,7})"
    r"(?![\d.,/:\-]\d|\d|\s*(?:%|€|\$|£|years?|days?|hours?|min|times|digits|tries"
    r"|attempts|x\b|(?:z[łl]|pln|kr|sek|nok|dkk|chf|czk|kč|huf|ft|inr|rs|rub|₽|₹|¥|yen|won|₩|usd|eur|gbp)(?!\w)))",
    re.IGNORECASE,
)
_GAP_NOT_A_CODE = re.compile(
    r"\b(?:in|since|until|till|from|by|of|after|before|attempts?|tries|digits?|times|ending|ends|last|expires?|expired"
    r"|changed|reset|valid|for|code|zip|postal|area|pinned|version|v|order|invoice|ref|reference|booking|tracking"
    r"|phone|tel|amount|total|transaction|zam[óo]wieni[ea]|pedido|bestellung|helpline|hotline|call|whatsapp"
    r"|" + FILED_AS + r")\b",
    re.IGNORECASE,
)


def _not_a_code(m: re.Match[str]) -> bool:
    """ "PIN changed in 2024", "pin code 560001 Bangalore" (an Indian postal code), "PIN
    attempts 3": a year, a count or a place after the word; a chip's or a board's pin
    ('"PIN 4471" in the datasheet is the connector pin number on the PCB')."""
    if _GAP_NOT_A_CODE.search(m.group("gap")) is not None or postal_pin_code(m.string, m.group("value")):
        return True
    if LAST_DIGITS.search(m.group("gap")) or _LAST_DIGITS_AFTER.match(m.string, m.end()):
        return True  # a phone's or a card's last digits: "nomor berakhiran 2281", "2281 ile biten numara"
    if _SET_IN_A_YEAR.search(m.group("gap")) and _YEAR.fullmatch(m.group("value")):
        return True  # "passcode set 2023": when it was set
    if m.group().lower().startswith("host") and a_key_size_after(m.string, m.end()):
        return True  # an SSH host key's size: "host key 4096 RSA", "host key 2048 bit" (review rv5)
    if BOARD.search(m.string) is not None:
        return True
    # Hindi's "पिन कोड" before six digits is the postal code
    return "कोड" in m.group("gap") and len(m.group("value")) == 6


# A phone's, a fitter's or a date's number after the lock's word ("the key safe company's phone
# is 0 2 0 7 9 4 6", "padlock fitted on 1203 2024"): whom to call and when, not the code.
_ANOTHER_NUMBER = re.compile(
    r"(?<![\w])(?:(?:phone|tel|telephone|mobile|cell)(?!['’]?s?\s+(?:unlock|lock|screen|pin|passcode|code))|call|ring"
    r"|hotline|helpline|fitted|installed|serviced|replaced|bought|delivered|since|warranty|model|serial)(?![\w])",
    re.IGNORECASE,
)
_YEAR_AFTER = re.compile(r"\s*[/.\-]?\s*(?:19|20)\d\d(?!\d)")


def _bracketed_year(m: re.Match[str]) -> bool:
    """ "the gate (1997) was repainted": a year in brackets after the thing, not its code."""
    return m.string[: m.start("value")].rstrip().endswith("(") and _YEAR.fullmatch(m.group("value")) is not None


def _another_number(m: re.Match[str]) -> bool:
    said = m.string[m.start() : m.start("value")]
    return _ANOTHER_NUMBER.search(said) is not None or _YEAR_AFTER.match(m.string, m.end("value")) is not None


# Turkish says "ending in" after the digits: "2281 ile biten numaraya".
_LAST_DIGITS_AFTER = re.compile(r"\s+ile\s+(?:biten|bitiyor|sona\s+eren)\b", re.IGNORECASE)
_TIME = re.compile(r"(?:[01]?\d|2[0-3])[0-5]\d")
_SET_IN_A_YEAR = re.compile(r"\b(?:set|created|issued|chosen|opened|registered)\s*$", re.IGNORECASE)
_YEAR = re.compile(r"(?:19|20)\d\d")


def _a_time(m: re.Match[str]) -> bool:
    value = re.sub(r"\D", "", m.group("value"))
    return (
        _TIME.fullmatch(value) is not None
        and re.search(r"\b(?:alarm|at|until|till|from|by|opens|closes)\b", m.group(), re.I) is not None
    )
