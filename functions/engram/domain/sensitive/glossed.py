"""A reading of text in other languages and scripts with the words that name a credential, an
id or an account written in English, so the rules written for English read it too.

People write a one-time code, a PIN or a password in their own language the way they do in
English ("आपका डिजीलॉकर ओटीपी ८३०२५१ है", "የCBE Birr ሚስጥር ቁጥር 6208 ነው", "Msimbo wako wa
uthibitisho ni 718204. Usishiriki ...", "你的支付宝支付密码我帮你改成了 270815"); the English
rules already tell the value from its look-alikes ("OTP 830251" from "the OTP will come to
the phone"). Each word here names one thing only, in every context: the English rules then
decide with the words around it as they do in English (a bare word for "code" or "number"
is no such word: Thai's รหัส names a student's or a product's code too, and is left as it is).

The words replaced keep space around them ("你的支付宝 payment password 我..."): scripts
without spaces between words would otherwise run them into the words around. The value is
never touched. ``None`` when no such word is in the text, which is most text.
"""

from __future__ import annotations

import re

from engram.domain.sensitive.prefilter import keyed

# What each group of words is written as, in English.
_GLOSSES: tuple[tuple[str, str], ...] = (
    (
        "OTP",
        # Hindi, Bengali, Urdu, Amharic, Tamil, Telugu, Thai, Japanese and Korean
        r"ओटीपी|ओ\s*टी\s*पी|ওটিপি|او\s*ٹی\s*پی|اوتیپی|ኦቲፒ|ஓடிபி|ఓటీపీ|ઓટીપી|ਓਟੀਪੀ|ಒಟಿಪಿ|ഒടിപി|โอทีพี|ワンタイムパスワード|일회용\s*비밀번호"
        r"|รหัส\s*(?:OTP|โอทีพี)|m[ãa]\s+otp",
    ),
    (
        "verification code",
        r"सत्यापन\s*कोड|वेरिफिकेशन\s*कोड|ভেরিফিকেশন\s*কোড|যাচাই(?:করণ)?\s*কোড|تصدیقی\s*کوڈ|ویریفکیشن\s*کوڈ"
        r"|کد\s*(?:تایید|تأیید|تائید)|رمز\s*(?:ال)?تحقق|كود\s*(?:ال)?تحقق|رمز\s*(?:ال)?تأكيد|ማረጋገጫ\s*ኮድ"
        r"|קוד\s*(?:ה)?אימות|验证码|驗證碼|校验码|認証コード|確認コード|認証番号|인증\s*번호|인증\s*코드|รหัส\s*ยืนยัน"
        r"|(?<![\w])(?:msimbo(?:\s+w?ako|\s+wangu|\s+wetu|\s+wenu)?\s+wa\s+uthibitisho|m[ãa]\s+x[áa]c\s+(?:nh[ậa]n|th[ựu]c)|kode\s+verifikasi"
        r"|код\w*\s+подтверждени\w*|код\w*\s+підтвердженн\w*)(?![\w])",
    ),
    # a payment's, a transfer's or a cash withdrawal's password: six digits, a PIN
    ("payment PIN", r"支付密码|支付密碼|交易密码|交易密碼|取款密码|取款密碼|支払いパスワード"),
    (
        "one-time code",
        r"(?<![\w])(?:clave\s+din[áa]mica|c[óo]digo\s+din[áa]mico|token\s+din[áa]mico)(?![\w])|رمز\s*پویا|动态码|动态密码|動態密碼",
    ),
    # (India's postal PIN code in its scripts, as its English words, so the English rules tell
    # it by its address: "पिन कोड: 400001 (मुंबई)")
    ("PIN code", r"पिन\s*कोड|পিন\s*কোড"),
    (
        "PIN",
        r"ሚስጥር\s*ቁጥር|ምስጢር\s*ቁጥር|מספר\s*(?:ה)?סודי|קוד\s*(?:ה)?סודי|الرقم\s*السري|الرمز\s*السري|رمز\s*سري"
        r"|暗証番号|핀\s*번호|(?<![\w])(?:namba\s+ya\s+siri|nambari\s+ya\s+siri|m[ãa]\s+pin)(?![\w])"
        r"|पिन|পিন|ፒን|(?<![\u0600-\u06ff])(?:پین|پن)(?![\u0600-\u06ff])",
    ),
    (
        "password",
        r"पासवर्ड|পাসওয়ার্ড|পাসওয়ার্ড|پاس\s*ورڈ|پسورد|رمز\s*عبور|گذرواژه|كلمة\s*(?:ال)?(?:سر|مرور)|סיסמה|סיסמא"
        r"|የይለፍ\s*ቃል|கடவுச்சொல்|รหัสผ่าน|(?<![゠-ヿ])パス(?![゠-ヿ])"
        # (Chinese's, Japanese's and Korean's only before a colon or a bracketed value in Latin
        # letters, not a rule, "パスワード（8文字以上）": run into the words after it,
        # "パスワードは1Passwordに入ってる" read as a password "は1Passwordに..."; cjk_passwords.py
        # reads them)
        r"|(?:密码|密碼|パスワード|비밀번호|비번)(?=\s*[:：]|\s*[(（「『][\x21-\x7e]{4,}[)）」』])|(?<![\w])(?:neno\s+la\s+siri|nenosiri|m[ậa]t\s+kh[ẩa]u|kata\s+(?:sandi|laluan))(?![\w])",
    ),
    (
        "recovery phrase",
        r"عبارت\s*(?:های\s*)?بازیابی|کلمات\s*بازیابی|عبارة\s*(?:ال)?(?:استرداد|استعادة)|סיד\s*פרייז|助记词|助記詞"
        r"|リカバリーフレーズ|복구\s*(?:문구|구문)|(?<![\w])(?:сид[\s\-]?фраз\w*|мнемоническ\w+\s+фраз\w*|фраз\w+\s+восстановлени\w*)(?![\w])",
    ),
    # Russian's and Ukrainian's code and the SMS it came in ("продиктовал код 4829 из смс"): the
    # English rules read "code 4829 from the sms" and tell it from an area or a postal code
    ("code", r"(?<![\w])(?:код|кода|кодом|коду|коды|кодів|коди)(?![\w])"),
    ("from the sms", r"(?<![\w])(?:из|по|в|с|со|з|із|від|через)\s+(?:смс|sms|эсэмэс|смс-ки|смски)(?![\w])"),
    # the last digits of a phone a code was sent to ("验证码已发送到尾号 4821 的手机")
    ("ending in", r"尾号|尾號|末尾|下[4四]桁|끝자리|ลงท้ายด้วย"),
    ("recovery code", r"복구\s*코드|백업\s*코드|恢复码|备用码|復元コード"),
    # ids: India's Aadhaar in its scripts (its Verhoeff check decides: Hindi's आधार is also
    # "basis"), a passport, Israel's teudat zehut by its abbreviation without the quote mark
    ("Aadhaar", r"आधार|আধার|આધાર|ਆਧਾਰ|ആധാർ|ଆଧାର"),
    (
        "passport",
        r"พาสปอร์ต|ፓስፖርት|পাসপোর্ট|பாஸ்போர்ட்|పాస్\u200c?పోర్ట్|પાસપોર્ટ|ਪਾਸਪੋਰਟ|राहदानी|პასპორტ\w*|անձնագ\w*"
        r"|(?<![\w])paspor(?![\w])|(?<![\u0600-\u06ff])جواز(?:ي|ك|ه|ها)?(?![\u0600-\u06ff])"
        r"|(?<![\w])паспорт\w*(?:\s+громадян\w+\s+\w+)?\s+для\s+(?:виїзду|выезда)\s+за\s+(?:кордон|границу)(?![\w])",
    ),
    ("teudat zehut", r"(?<![\u0590-\u05ff])תז(?![\u0590-\u05ff])"),
    # an account in Swahili ("CRDB akaunti namba 0152847391600"), savings in Spanish after the
    # bank's name ("Bancolombia ahorros 031-456789-12"); Chinese, Japanese and Korean banks'
    # names are in bank_names.py
    ("account number", r"(?<![\w])akaunti(?:\s+(?:namba|nambari))?(?![\w])|ሂሳብ\s*ቁጥር"),
    # a card's security code in scripts that spell out "CVV" ("कार्ड का सीवीवी 123 है")
    ("CVV", r"सीवीवी|सी\s*वी\s*वी|সিভিভি|سی\s*وی\s*وی|سي\s*في\s*في|ซีวีวี|ሲቪቪ|சிவிவி|సీవీవీ"),
    ("savings", r"(?<![\w])ahorros(?![\w])"),
    # a safe in Cyrillic ("сейф в кабинете: 61-02-44"), a wifi's password in Vietnamese slang
    # ("pass wifi phòng họp: phonghop-tang3-88")
    ("safe", r"(?<![\w])сейф\w*(?![\w])"),
    ("wifi password", r"(?<![\w])pass\s+(?:wifi|wi-fi|wf)(?![\w])"),
    # Arabizi's "of" ("el pin bta3 el visa 7731": the PIN of the Visa)
    ("of", r"(?<![\w])(?:bta3|btaa3|beta3|bta3et|bta3t|bta3a|beta3et)(?![\w])"),
)
# (not keyed: prefilter.py reads a vowel sign as a word's end, and "ओटीपी" holds no word of two
# letters for it; it is read only on a text in other scripts or holding a word of _LATIN_STARTS)
_GLOSS = re.compile("|".join(f"(?P<g{i}>{words})" for i, (_, words) in enumerate(_GLOSSES)), re.IGNORECASE)
_ENGLISH = {f"g{i}": english for i, (english, _) in enumerate(_GLOSSES)}
# The Latin-script words above start with these: an all-ASCII text without any is not read
# (keyed: a plain message is not read at every position for them).
_LATIN_STARTS = keyed(
    r"(?<![\w])(?:paspor|m[ãa]\s+(?:otp|pin|x[áa]c)|m[ậa]t\s+kh|pass\s+wi|akaunti|ahorros|msimbo|namba|nambari|neno|nenosiri|kata|kode|clave|c[óo]digo|token|bta3|btaa3|beta3)",
    re.I,
)


# What is read around each word: as far as secret.py reads around a secret's word. A stretch
# is read only when something may give a value in it (a digit, a colon or a quote), or when
# the word names a recovery phrase (words, no digit): 60,000 characters of such words and no
# value cost the English rules a second.
_BEFORE, _AFTER = 160, 320
# A long text of such words (a log of codes, the same line again and again) is read as far as
# its first _READ_MAX characters of stretches: the English rules read the reading word by word,
# and "密码：1 " 20,000 times was a reading of 260,000 characters, 4.7 s of CPU (rv8). The
# corpus's longest text is some 500 characters; a text of 8,000 characters of stretches holds
# at least 16 of them.
_READ_MAX = 8_000
_VALUE_NEAR = re.compile(r"[\d:：=\"“”«»「」'‘’]")
_WORDS_ARE_THE_VALUE = frozenset({"recovery phrase"})


# A letter of the scripts whose words are glossed: Cyrillic, Armenian, Hebrew, Arabic, the Indic scripts,
# Thai, Georgian, Ethiopic, kana, CJK ideographs, Hangul.
_SCRIPT_LETTER = re.compile(
    r"[\u0400-\u052f\u0530-\u058f\u0590-\u08ff\u0900-\u0dff\u0e00-\u0e7f\u10a0-\u10ff\u1200-\u137f\u3040-\u30ff"
    r"\u3400-\u9fff\uac00-\ud7af]"
)


def glossed(text: str) -> str | None:
    """The stretches of the text around the words above, with those words in English (one
    stretch a paragraph), or ``None`` when it holds none with a value near."""
    if _SCRIPT_LETTER.search(text) is None and _LATIN_STARTS.search(text) is None:
        return None  # (most text: an accent or a dash is no other script, and reading it cost 10 ms)
    spans: list[list[int]] = []
    done = 0  # (the characters of the stretches before the last)
    for m in _GLOSS.finditer(text):
        start, end = max(0, m.start() - _BEFORE), min(len(text), m.end() + _AFTER)
        near = _VALUE_NEAR.search(text, start, min(len(text), m.end() + _AFTER // 2)) is not None
        if not near and _ENGLISH[m.lastgroup or ""] not in _WORDS_ARE_THE_VALUE:
            continue
        if spans and start <= spans[-1][1]:
            spans[-1][1] = end
        else:
            done += spans[-1][1] - spans[-1][0] if spans else 0
            spans.append([start, end])
        if done + spans[-1][1] - spans[-1][0] >= _READ_MAX:
            spans[-1][1] = _cut(text, spans[-1][0], spans[-1][0] + _READ_MAX - done)
            break
    if not spans:
        return None
    return "\n\n".join(_GLOSS.sub(_english, _UNITS_NUMBER.sub("", text[a:b])) for a, b in spans)


def _cut(text: str, start: int, at: int) -> int:
    """Where a stretch read up to ``at`` ends: the last space before it (a value is not cut)."""
    space = max(text.rfind(" ", start, at), text.rfind("\n", start, at))
    return space if space > start else at


# A number with its counter or unit written after it is that unit's ("暗証番号の手数料は1100円",
# "핀 번호는 2024년에", "ओटीपी 1800 सेकंड तक मान्य"): the English rules know no Japanese yen, Korean
# year or Hindi second and would read the number alone beside "PIN" or "OTP" as its value, so
# the reading leaves it out (the unit stays; a code is written with no unit after it).
_UNITS_NUMBER = re.compile(
    r"\d+(?:[.,]\d+)*[ \t]*(?=[年月日時时分秒号號個个件円元원년월일시분초개번回次人名歳岁]"
    r"|(?:सेकंड|मिनट|घंटे|घंटा|रुपये|रुपए|रुपया|साल|बार|दिन|সেকেন্ড|মিনিট|টাকা|বছর))"
)


def _english(m: re.Match[str]) -> str:
    return f" {_ENGLISH[m.lastgroup or '']} "
