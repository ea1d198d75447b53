"""A short code read out digit by digit ("kod 5 1 7 3", "PIN ...: vier, null, neun, zwei",
"the alarm 7 2 4 1 ile kapanıyor") after a word for a code or for what it locks. People
spell or space a number out like this when they pass it on to be typed; what decides is
the nearest word before it: a code or a lock ("pin", "kod", "alarm", "keypad", "cofre")
makes it a secret, a word for another kind of number ("order", "phone", "reference",
"passport", "iban") does not. Any number rule that reads the value as a card, an id or an
account runs first."""

from __future__ import annotations

import bisect
import re

from engram.domain.sensitive.made_up_locks import made_up_place
from engram.domain.sensitive.no_access import NAMED_CODE
from engram.domain.sensitive.prefilter import keyed
from engram.domain.sensitive.reading_view import dictated_runs

# Compounds ending in a code's word that name a code opening nothing (German, Dutch and the
# Nordic languages fuse them: "Gutscheincode", "kortingscode", "rabattkod", "alennuskoodi").
_OTHER_CODES = (
    r"post|zip|bar|promo|qr|area|country|error|status|fehler|rabat|kunden|produkt|artikel|gutschein|landes|l[äa]nder"
    r"|bank|swift|sort|region|farb|colou?r|aktion|voucher|korting|coupon|promotie|actie|kampanj|alennus|source|uni"
    r"|short|geo|pseudo|antwort|response|return|exit|sendung|buchung|booking|ticket|trace|track|order|bestell|referen"
    r"|invoice|rechnung|leit|airport|flughafen|hotel|zone|lager|teil|part|item|check|pr[üu]f|dial|vorwahl|steuer|tax"
    r"|zeichen|char|machine|byte|html|ansi|ascii|morse|dress|hash|qrcode|trans"
    # (an error's code in Dutch and the Nordic languages, a product's, a colour's, a video's)
    r"|fout|feil|fejl|fel|virhe|product|time|hex|leet|batch|lot|date|kleur|farge|f[äa]rg|v[äa]ri|land"
)
_CODE = (
    r"pins?|pin-?code|pincode|codes?|codice|c[óo]digo|kod|koden|kode|koder|kodem|kodu|kodunuz|koodi|k[óo]dom|codul|senha"
    r"|пин|пін|пин-?код|пін-?код|код|пароль|heslo|parola|salasana|passord(?:et)?"
    r"|passcode|passwor[dt]|pass\s+word|kennwort|contrase[ñn]a|mot\s+de\s+passe|wachtwoord|has[łl]o|l[öo]senord(?:et)?"
    r"|[şs]ifre(?:m|si|niz)?|combination|combo|kombination|combinaison|combinazione|combinaci[óo]n"
    r"|alarm|alarme|alarma|allarme|alarmu|alarmen|keypad|key\s?pad|tastiera|teclado|safe|tresor|coffre|cofre"
    r"|cassaforte|caja\s+fuerte|kluis|sejf\w*|kassaskåp\w*|pengeskab\w*|lock\s?box|key\s?box|key\s+safe"
    r"|schl[üu]ssel(?:kasten|box|tresor)|nyckelsk[åa]p\w*|n[øo]gleboks\w*|skrzynk\w*|cassett\w*|cancello|furtk\w*"
    r"|brama|bramy|gate|padlock|lucchetto|candado|cadeado|cadenas|vorh[äa]ngeschloss|k[łl][óo]dk\w*"
    r"|screen\s+time|unlock|entsperr\w*|digicode|t[üu]rcode"
    # a wallet's or a bank's PIN and one-time code, a password word, in more languages ("MPIN
    # ng GCash ... ay 2 8 4 6", "mật khẩu két tiền: 0 5 1 2"); a compound ending in a code's
    # word ("beheerderscode 0 0 7 7 1", "toegangscode", "Zugangscode"), not one naming another
    # kind of code ("postcode", "barcode")
    r"|кодов\w*|код(?:ът|а|у|ом|ове)|m-?pin|otp|totp|2fa|mfa|m[ậa]t\s+kh[ẩa]u|clave|mot\s+de\s+passe|msimbo|nenosiri"
    # Romanian's inflected PIN and code ("pinul la cardul ... e patru doi doi nouă"), Vietnamese's
    # code of a gate, a door, a lock or a safe ("mã cổng kho hàng: một chín chín không"), a dial
    # lock's "combi" (not a boiler's or an oven's), an intercom's key after a flat's number
    # ("домофон: 57 ключ 2 2 8 0")
    r"|pinul|pin-ul|codul|m[ãa]\s+(?:c[ổo]ng|c[ửu]a|kh[óo]a|k[ée]t|t[ủu]|pin|m[ởo])"
    r"|combi(?![\s\-]+(?:boiler|oven|steamer|microwave|van|ticket|deal))|ключ(?=\s+\d)"
    r"|(?!" + _OTHER_CODES + r")[^\W\d_]{3,}(?:code|kode|kod|koodi)s?"
)
# A lock named as such or a key safe, in more languages ("the generator lock is 3 1 3 1",
# "замок на складе: 5-5-1-9", "la boîte à clés ... c'est 1 0 3 3", "keysafe 3 3 0 9"). These
# words name many other things too (a mutex's lock, Caps Lock, "lock in" a rate, a castle,
# Vietnamese khóa for a course), so the number must be said to be the lock's: see _SAID_OF_IT.
_THING = (
    r"(?<!num\s)(?<!caps\s)(?<!scroll\s)locks?(?![\s\-]+(?:down|in|up|out)(?![\w]))"
    # (and a lock's word as the end of a compound, "Fahrradschloss", "cykellåset"; Turkish's
    # inflected "kilidi")
    r"|[^\W\d_]*lås(?:et|en)?|hangslot|cijferslot|fietsslot|[^\W\d_]*schloss|serrure|cerradura|fechadura|serratura"
    r"|z[áa]mek|z[áa]mku|zamka|kilit\w*|kilid\w*|lakat|gembok|ổ\s+khóa|khóa\s+(?:cửa|số|két|tủ|cổng)|két\s+(?:sắt|tiền)"
    r"|замок|замка|замке|замку|сейф\w*|сигнализаци\w*|домофон\w*"
    r"|key[\s\-]?safe|keysafes?|sleutelkluis\w*|sleutelkast\w*|bo[îi]te\s+[àa]\s+cl[ée]s|n[øo]kkelboks\w*"
    r"|nyckelbox\w*|schl[üu]sselsafe|chave(?!\s+(?:de\s+fenda|inglesa))"
    # and in Swahili, Hausa, Hungarian, Tagalog, Indonesian ("kufuli ya tangi la dizeli: 0 9 1 9",
    # "a csónakház kulcsos doboza: 9 0 3 4", "kandado ng gate 4 1 7 7")
    r"|kufuli|kulle|kulcsos\s+doboz\w*|kulcsdoboz\w*|sz[áa]mz[áa]r\w*|k[óo]dz[áa]r\w*|lakat\w*|kandado|padlock"
)
_OTHER_NUMBER = (
    r"order|orders|phone|tel|telephone|mobile|call|calls|ext|fax|reference|ref|tracking|parcel|invoice|ticket"
    r"|booking|reservation|flight|room|bay|level|floor|platform|bus|route|total|price|amount|member|customer"
    r"|policy|case|claim|postcode|zip|user|service|serial|model|version|item|sku|isbn|imei|sendungsnummer"
    r"|bestellung|bestellnummer|telefon|teléfono|tel[ée]fono|t[ée]l[ée]phone|telefone|pedido|commande|ordine"
    r"|bestelling|zam[óo]wienie|sipari[şs]|numer\s+telefonu|referencia|r[ée]f[ée]rence|riferimento"
    r"|ssn|social|passport|licen[cs]e|iban|account|sort|routing|card|tarjeta|karte|carte|nhs|insurance"
    r"|steps?|page|pages|row|seat|table|chapter|exercise|days|floors|levels|rooms|phases?|waves?|rounds?|groups?|gruppen?|thứ"
    r"|đơn\s+hàng|điện\s+thoại|sđt|phòng|телефон\w*|заказ\w*|квартир\w*"
    r"|hotline|helpline|support|contact|ruf\w*|anruf\w*|llam\w*|appel\w*|chiam\w*|bel|zadzwo\w*|ring"
    r"|aadhaar|bsn|pesel|tax|vat|fiscale?|steuer\w*|nif|nie|dni|cpf|id|identit\w+"
)
# (a code named as opening nothing, "status code", "area code", counts as another number; so
# does a bank's branch code, "sort code twenty forty five seventy seven": no account alone)
_BRANCH_CODE = r"(?:sort|branch|swift|routing|transit)[\s\-]+codes?"
# Keyed (prefilter.py): a text holding none of its words is not read at every character
# (1.8 s over 96,000 characters of "コード 1 2 3 4", which the script words below are for).
_KEYWORD = keyed(
    r"(?<![\w])(?:(?P<other_code>"
    + NAMED_CODE
    + r"|"
    + _BRANCH_CODE
    + r")|(?P<code>"
    + _CODE
    + r")|(?P<thing>"
    + _THING
    + r")|(?P<other>"
    + _OTHER_NUMBER
    + r"))(?![\w])",
    re.I,
)
# The same in scripts written without spaces between words, or with "the" and "of" joined to
# the word (Thai, Chinese, Japanese, Korean, Hebrew, Arabic, Hindi): a code's, a password's, an
# alarm's or a lock's word ("รหัสกันขโมย ... 1 9 7 3", "警備の解除番号は 8 4 0 2", "보안 해제
# 번호는 6 1 3 8", "קוד חד פעמי: 6 1 9 4 0 2"); a phone's, an order's or a room's is another number.
_SCRIPT_KEYWORD = re.compile(
    r"(?P<code>รหัส|暗証|パスワード|סודי|コード(?![゠-ヿ]|進行)|密码|密碼|口令|验证码|驗證碼|비밀번호|비번|코드(?!\s*진행)|인증"
    r"|קוד|סיסמ|كود|رمز|كلمة\s*(?:السر|المرور)|الرقم\s*السري|पिन|कोड|पासवर्ड|पासकोड"
    # Bengali, Urdu and Persian, Amharic, Tamil, Georgian: a code, a PIN, a password, an OTP
    r"|কোড|পিন|পাসওয়ার্ড|পাসওয়ার্ড|ওটিপি|کوڈ|کد|پن\s*کوڈ|پاس\s*ورڈ|او\s*ٹی\s*پی|ኮድ|ኮዱ|ፒን|ሚስጥር|የይለፍ\s*ቃል"
    r"|குறியீடு|கடவுச்சொல்|பின்|კოდ|პაროლ|ओटीपी"
    # and in Gujarati, Punjabi, Telugu, Kannada, Malayalam, Sinhala, Armenian
    r"|કોડ|પિન|ਕੋਡ|ਪਿੰਨ|ਪਿਨ|కోడ్|పిన్|ಕೋಡ್|ಪಿನ್|കോഡ്|പിൻ|කේතය|පින්|կոդ|գաղտնաբառ)"
    # (a chord's progression is no code, コード進行 4 5 3 6; nor rock music, ロックバンド; nor a
    # chain store, 连锁店; nor a lockdown, ล็อคดาวน์)
    r"|(?P<thing>กุญแจ|ตู้เซฟ|กันขโมย|ล็อค(?!ดาวน์)|解除|警備|セキュリティ|キーボックス|金庫|ロック(?![゠-ヿ])|ダイヤル"
    r"|解锁|解鎖|门禁|門禁|保险箱|保險箱|保险柜|(?<![连連])[锁鎖]|보안|해제|도어락|금고|자물쇠"
    r"|אזעקה|כספת|מנעול|إنذار|انذار|خزنة|بوابة|قفل|ताला|लॉकर|तिजोरी|鍵(?!盤)|তালা|লকার|সিন্দুক|تالا|تجوری|ካዝና|ቁልፍ)"
    r"|(?P<other>電話|电话|携帯|手机|手機|전화|휴대폰|핸드폰|هاتف|جوال|موبايل|טלפון|נייד|โทร|เบอร์|फ़ोन|फोन|मोबाइल|注文|订单"
    r"|訂單|주문|طلب|הזמנה|คำสั่งซื้อ|部屋|房间|号室|호실|郵便|邮编|우편|ห้อง|غرفة|חדר|ทะเบียน|会員|会员|회원|進行|진행)"
)
# What may stand between a lock's word and its number: a few words, no clause's end or comma
# ("the shed lock is 4 0 7 2", "keysafe by the back door: 6 1 0 4", "金庫の番号は 8 0 1 7"),
# not "mutex lock contention benchmark: ran with 1 2 4 8 threads" or "kilit taşı, adımlar 1 2 3".
_BREAK = re.compile(r"[\d;!?,，、。；！？\n]|(?<!\.)\.(?!\.)")
_SAID_OF_IT_WORDS = 5
_SAID_OF_IT_CHARS = 40
_UNIT_AFTER = re.compile(
    r"\s*(?:mg|kg|g|ml|l|cm|mm|km|m|%|€|\$|£|usd|eur|gbp|cents?|euros?|dollars?|pounds?|years?|days?|hours?"
    r"|minutes?|min|times|people|pm|am|h|uhr|percent|threads?|cores?|workers?|nodes?)\b",
    re.IGNORECASE,
)
# How a code was passed on, not what the number is ("am Telefon gesagt", "on the phone").
_MANNER = re.compile(
    r"(?<![\w])(?:on|over|by|via|am|per|al|au|por|przez|pelo|ao|at|through)\s+(?:the\s+)?"
    r"(?:phone|telefon\w*|tel[ée]fono|t[ée]l[ée]phone|telefoon)(?![\w])",
    re.IGNORECASE,
)
# A day and a month said digit by digit before their year ("fitted on 1 2 0 3 2024"): a date.
_YEAR_AFTER = re.compile(r"\s*[/.\-]?\s*(?:19|20)\d\d(?!\d)")
_LOOK_BACK = 100
# An escape room's code opens a game's lock ("the escape room code was 4-7-1-9").
_ESCAPE_ROOM = re.compile(r"(?<![\w])escape[\s\-]?rooms?(?![\w])", re.IGNORECASE)


def dictated_code(text: str) -> bool:
    runs = [
        start
        for start, end, digits in dictated_runs(text)
        if 3 <= digits <= 8
        and not _UNIT_AFTER.match(text, end)
        and not _YEAR_AFTER.match(text, end)
        # (a lock's reset, "combination lock: reset it to 0-0-0 first", is not its code)
        and set(text[start:end]) - {"0", " ", "-"}
    ]
    if not runs or made_up_place(text) or _ESCAPE_ROOM.search(text) is not None:
        return False  # (a lock in a game or a story opens nothing: "the keypad code in the book is 3-1-4-1")
    keywords = _keywords(text, runs[-1])
    ends = [end for end, _, _ in keywords]
    for start in runs:
        # the nearest word before the number decides: a code's, not another number's
        # (a lock's word the number is not said of leaves the word before it to decide: "code
        # de la boîte à clés pour l'airbnb de Bordeaux, c'est 3 7 1 9")
        at = bisect.bisect_right(ends, start) - 1
        while at >= 0 and keywords[at][1] >= start - _LOOK_BACK:
            end, _, kind = keywords[at]
            if kind == "code" or (kind == "thing" and _said_of_it(text[end:start])):
                return True
            if kind == "other" and not _its_own_number_before(text, end, start):
                break
            at -= 1
    return False


# A code said aloud and written down by ear, its digits as the words that sound like them
# ("the door code is for for to won won", "pass word ... is to oh won ate", "won too tree
# for"): a voice note's transcript or a child's message. Read only as a whole slot: four to
# eight such words right after "is", "was" or a colon, ending the clause; what they are a
# code of is decided by the words before, as for any dictated number ("the meeting is for
# two to four people" has no code's word, and "people" follows).
_HEARD = {"won": "1", "to": "2", "too": "2", "tree": "3", "for": "4", "fore": "4", "ate": "8"}
_SAID = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5"}
_SAID |= {"six": "6", "seven": "7", "eight": "8", "nine": "9"}
# (a word heard for a digit that prose never strings with number words: "for one to four"
# and "is for two to three" are ranges)
_STRONG = frozenset(["won", "too", "tree", "fore", "ate"])
_HEARD_WORD = r"(?:won|to|too|tree|fore?|ate|zero|oh|one|two|three|four|five|six|seven|eight|nine)"
# (the run is looked for from its own words, each a lead where the pattern is tried, and the
# slot before it checked after: "is" and ":" are in most text)
_HEARD_SLOT = keyed(
    r"(?<![\w])(?P<run>" + _HEARD_WORD + r"(?:[ \t,\-]+" + _HEARD_WORD + r"){3,7})"
    r"(?=[ \t]*(?:$|[.,;!?\n\"'”)]|[-–—]|like\b|ok\b|okay\b|thanks\b|x+\b))",
    re.IGNORECASE,
)
_SLOT_BEFORE = re.compile(r"(?:(?<![\w])(?:is|was|be)|:)[ \t]+$", re.IGNORECASE)


def heard_code(text: str) -> str | None:
    """The text with a code written by ear read as its digits ("is 4 4 2 1 1"), or ``None``
    when it holds no such slot."""
    out, last = [], 0
    for m in _HEARD_SLOT.finditer(text):
        if _SLOT_BEFORE.search(text, max(0, m.start() - 8), m.start()) is None:
            continue
        words = re.split(r"[ \t,\-]+", m.group("run").lower())
        if not (_STRONG.intersection(words) or not _SAID.keys() & set(words)):
            continue  # (number words alone are read by reading_view already; "for one to four" is a range)
        out.append(text[last : m.start("run")] + " ".join(_HEARD.get(w) or _SAID[w] for w in words))
        last = m.end("run")
    return "".join(out) + text[last:] if out else None


# Another thing's word with its own number said at once ("tankpas pincode bus 3: negen nul nul
# vijf", "the pin for room 12 is 4 4 0 9"): that number is which bus or room, and the code's
# word before it still decides the number that comes after.
_OWN_NUMBER = re.compile(r"\s*(?:no\.?|nr\.?|#)?\s*\d{1,4}(?![\d\-])")


def _its_own_number_before(text: str, end: int, run_start: int) -> bool:
    m = _OWN_NUMBER.match(text, end)
    return m is not None and m.end() < run_start


def _said_of_it(gap: str) -> bool:
    """Whether the words between a lock's word and a number say the number is the lock's."""
    return len(gap) <= _SAID_OF_IT_CHARS and not _BREAK.search(gap) and len(gap.split()) <= _SAID_OF_IT_WORDS


def _keywords(text: str, upto: int) -> list[tuple[int, int, str]]:
    """Each word before ``upto`` that names a code, a lock or another number: (end, start, its
    kind: "code", "thing" or "other"),
    in the order of their ends. Read once over the text, not once per number: a long text of
    dictated numbers asked the words before each of them again (90,000 characters of "x 1-2-3"
    took 7 s)."""
    manner = [m.span() for m in _MANNER.finditer(text, 0, upto)]
    found = [(m.end(), m.start(), _kind(m)) for m in _KEYWORD.finditer(text, 0, upto)]
    if not text.isascii():
        found += [(m.end(), m.start(), _kind(m)) for m in _SCRIPT_KEYWORD.finditer(text, 0, upto)]
        found.sort()
    if manner:
        # (both in the order of the text: a word inside a manner's span is left out)
        starts = [a for a, _ in manner]
        found = [k for k in found if (i := bisect.bisect_right(starts, k[1]) - 1) < 0 or k[0] > manner[i][1]]
    return found


def _kind(m: re.Match[str]) -> str:
    return "code" if m.group("code") is not None else "thing" if m.group("thing") is not None else "other"
