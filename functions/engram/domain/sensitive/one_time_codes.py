"""Codes people forward or copy as they came: a one-time code SMS ("284 119 is your one time
password", "Din MitID-kode er 219 044. Del den aldrig med andre."), a list of backup codes
read off a sheet, a BitLocker recovery key, a wallet's recovery phrase, an authenticator's
setup key, a safe's dial combination. The SMS carries its own tell in every language: the
value sits beside a code word and a warning never to share it."""

from __future__ import annotations

import re

from engram.domain.sensitive.prefilter import keyed
from engram.domain.sensitive.secret_words import FILED_AS

# A one-time code as messages write it: 4 to 8 digits, or two groups of three, or three
# of two, maybe after a letter and a dash ("G-482917"); not part of a longer number, an
# amount or a date.
_VALUE = r"(?<![\w.,/:\-])(?<!\d )(?:[A-Z]-)?(?:\d{4,8}|\d{3}[ \-]\d{3}|\d\d \d\d \d\d)(?![\w/:]|[.,]\d|[ \-]\d)"
_CODE_WORD = (
    r"(?<![^\W\d_])[\w\-]*(?:code|codes|kod|kode|koden|koder|kodu|kodunuz|kodun|codice|c[óo]digo|passcode|password"
    r"|passwort|otp|tan|pin)(?![\w])"
)
_NOT_A_ONE_TIME_CODE = re.compile(
    r"(?:zip|post(?:al)?|area|country|promo|discount|coupon|voucher|gift|referral|tracking|booking|order|error"
    r"|status|dress|tax|sort|swift|bic|bank|qr|bar|source|reference|loyalty|member(?:ship)?|card|invite|invitation"
    r"|rabatt|gutschein|descuento|cup[óo]n|r[ée]duction|sconto|kortingscode|korting|confirmation|reservation|pickup"
    r"|product|license|licence|activation|seat|flight|ticket|customer|client|account|postcode)[\s\-]?$",
    re.IGNORECASE,
)
_SHARE_WARNING = re.compile(
    r"never\s+share|(?:do\s*n['’]?o?t|don['’]t|do\s+not)\s+(?:share|give|tell)|not\s+(?:share|give)\s+(?:this|it|the)"
    r"|nie\s+(?:podawaj|udost[ęe]pniaj|przekazuj)|deel\s+(?:deze\s+code|hem|het|de\s+code)\s+(?:met\s+niemand|niet)"
    r"|ne\s+(?:le|la|les)\s+donne[zs]?\s+[àa]\s+personne|dela\s+(?:aldrig|inte)|del\s+(?:den|koden|aldrig)|kimseyle\s+payla[şs]|payla[şs]may[ıi]n"
    r"|(?:teile|gib)\s+(?:ihn|den\s+code|diesen\s+code|sie)\s+(?:nicht|mit\s+niemandem|niemals)|niemals\s+weiter"
    r"|ne\s+(?:le\s+)?(?:partagez|communiquez|transmettez)|no\s+(?:lo\s+)?(?:compartas|compartir|comparta)"
    r"|nunca\s+compart|non\s+(?:condividere|comunicare)|n[ãa]o\s+(?:compartilhe|partilhe|compartilhar)"
    r"|никому\s+не|не\s+сообщайте|älä\s+kerro|ikke\s+del",
    re.IGNORECASE,
)
# "284 119 is your one time password", "G-482917 is your Google verification code": found
# from the copula and its "your", then the value checked just before (cheaper than trying
# the value at every position of a long message).
_IS_YOUR_CODE = re.compile(
    r"\s(?:is|est|ist|es|är|er|is\s+je|to)\s+(?:your|votre|ton|dein|ihr|tu|su|din|je|tw[óo]j)\s+"
    r"(?:[\w\-]+\s+){0,3}?(?:one[\s\-]time\s+(?:password|code|passcode|pin)|verification\s+code|security\s+code"
    r"|login\s+code|sign[\s\-]?in\s+code|otp|code\s+de\s+v[ée]rification|c[óo]digo(?:\s+de\s+\w+)?"
    r"|(?:best[äa]tigungs|verifizierungs|sicherheits|anmelde)code|(?:\w+\s+)?code|kod|kode)\b",
    re.IGNORECASE,
)
# "Your Steam Guard code: 7KQ4F", "your Battle.net login code: 84J2Q": a service's code
# mail or text, the value after a colon, letters and digits mixed.
_YOUR_CODE_IS = re.compile(
    r"\byour\s+(?P<what>(?:[\w.\-]+\s+){0,3}?)(?:code|passcode|pin|otp)\s*[:：]\s*"
    r"(?P<value>(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z\d]{4,8}|\d{4,8})(?![\w\-/.])",
    re.IGNORECASE,
)
_VALUE_AT_END = re.compile(_VALUE + r"$")
_VALUE_RE = re.compile(_VALUE)
_CODE_WORD_RE = re.compile(_CODE_WORD, re.IGNORECASE)
# Backup codes read off their sheet: two or more codes of one shape after the words, on
# their line or one a line below it ("MFA backup codes for ops@ account:\n 8841 2290\n 1573 0086").
# (letters too: GitHub's are hex, "3f8a-91c2  d4e7-4b6f  9a0c-5e1d")
_BACKUP_CODE_LIST = re.compile(
    r"\b(?:recovery|backup|2fa|mfa|scratch)\s+codes\b[^\n]{0,100}?(?:\n[ \t\-*•]*)?"
    r"(?P<code>[a-z\d]{4,5}[\- ][a-z\d]{4,5})(?:\s*,\s*|\s+)(?:[\-*•]\s*)?(?P<next>[a-z\d]{4,5}[\- ][a-z\d]{4,5})\b",
    re.IGNORECASE,
)


def backup_codes(text: str, words: frozenset[str]) -> bool:
    """A list of backup codes after their name: asked before the account rules, which read
    "account" and a column of digit pairs as an account number."""
    return "codes" in words and any(
        _code_shaped(m.group("code")) and _code_shaped(m.group("next")) for m in _BACKUP_CODE_LIST.finditer(text)
    )


def _code_shaped(code: str) -> bool:
    # digits, or letters and digits mixed as a generator makes them: three digits at least,
    # no word ("this-that", "code 1234")
    return sum(c.isdigit() for c in code) >= 3 and not any(
        len(part) > 2 and part.isalpha() for part in re.split(r"[\- ]", code)
    )


# A BitLocker recovery key: 48 digits in eight groups of six.
_BITLOCKER_KEY = re.compile(r"(?<![\d\-])\d{6}(?:-\d{6}){7}(?![\d\-])")


# A recovery phrase: twelve or more plain lower-case words after its name, none of them
# the little words a sentence needs (word lists for phrases hold none).
_PHRASE_NAME = re.compile(
    r"\b(?:recovery|seed|backup|secret|mnemonic|wallet)\s+(?:phrase|words|sentence)\b|\bmnemonic\b"
    # the words counted as a wallet gives them, the wallet named ("the 12 words for Frank's wallet")
    r"|\b(?:12|18|24|twelve|eighteen|twenty[\s\-]four)\s+words\b(?=[^\n]{0,60}?\b(?:wallet|ledger|trezor|metamask"
    r"|electrum|exodus|phantom|bitcoin|btc|eth|crypto|coins?|keepkey|coldcard|tangem)\b)"
    # a bare "seed" beside a wallet's word ("seed for the old ledger (DONT LOSE): ..."; not a
    # gardener's "seed" and twelve plants)
    r"|\bseed\b(?=[^\n]{0,60}?\b(?:ledger|trezor|wallet|metamask|electrum|exodus|phantom|keystone|bitcoin|btc|eth"
    r"|crypto|coins?|keepkey|coldcard|tangem)\b)"
    r"|\b(?:phrase|frase)\s+(?:de\s+)?(?:r[ée]cup[ée]ration|recuperaci[óo]n|recupera[çc][ãa]o|secr[èe]te|semilla|semente)"
    r"|\bwiederherstellungs(?:phrase|s[äa]tze?)\b|\bherstelzin\b|\bfrase\s+(?:di\s+)?recupero\b"
    # (and in more languages and scripts, the words of the phrase English as a wallet gives
    # them: "сид-фраза от кошелька: walnut vivid ...", "助记词：...", "시드 문구: ...")
    r"|\b(?:сид|seed)[\s\-]?фраз\w*|\bмнемоническ\w*\s+фраз\w*|\bфраз\w*\s+(?:для\s+)?восстановлени\w*"
    r"|\bсекретн\w*\s+фраз\w*|\bkurtarma\s+(?:ifadesi|kelimeleri)|\bfraza\s+(?:odzyskiwania|seed|mnemoniczna)"
    r"|\bseed[\s\-]?(?:phrase|satz|frase|zin)|シードフレーズ|リカバリーフレーズ|復元フレーズ|助记词|助記詞|恢复短语|种子短语"
    r"|시드\s*(?:문구|구문)|복구\s*(?:문구|구문)|วลีกู้คืน",
    re.IGNORECASE,
)
# ... or numbered, one word each ("word 1 scout, 2 velvet, 3 absurd, ...", "1. scout 2. velvet"):
# twelve or more in order after a phrase's name or "word 1".
_NUMBERED_PHRASE = re.compile(
    r"\b1[.):]?\s+[a-z]{3,8}[,;]?(?:\s+(?:\d{1,2})[.):]?\s+[a-z]{3,8}[,;]?){11,23}(?![\w'’\-])", re.IGNORECASE
)
_PHRASE = re.compile(r"(?<![\w'’\-])[a-z]{3,8}(?: [a-z]{3,8}){11,23}(?![\w'’\-])")
_FUNCTION_WORDS = frozenset(
    [
        *("the", "and", "for", "you", "your", "with", "that", "this", "from", "have", "not", "but", "are"),
        *("was", "were", "what", "when", "where", "which", "will", "would", "can", "could", "should", "there"),
        *("their", "they", "them", "then", "than", "into", "onto", "about", "just", "also", "very", "some", "any"),
    ]
)
# An authenticator's setup key: base32, 16 characters or more, maybe in groups of four.
_TOTP_KEY = keyed(
    r"\b(?:totp|2fa|mfa|otp|authenticator)\b[^\n]{0,20}?\b(?:secret|key|seed|setup\s+key)\b[^\n]{0,40}?"
    r"(?<![A-Za-z0-9])(?=[A-Z2-7 ]*[2-7])(?=[A-Z2-7 ]*[A-Z])[A-Z2-7]{4}(?: ?[A-Z2-7]{4}){3,}(?![A-Za-z0-9])",
    re.IGNORECASE,
)
# A dial combination: "left 24, right 11, left 38", "L24-R11-L38".
_DIAL = re.compile(
    r"\b(?:left|right|l|r)\s?\d{1,2}\s*[,\-/]\s*(?:left|right|l|r)\s?\d{1,2}\s*[,\-/]\s*(?:(?:and|then)\s+)?"
    r"(?:left|right|l|r)\s?\d{1,2}\b",
    re.IGNORECASE,
)
# ... or with spaces alone between turns that alternate ("L 36 R 14 L 92"), when a safe, a
# lock or a combination is named ("turn left 2 right 3" alone is a route).
_SPACED_DIAL = re.compile(
    r"\b(?:(?:left|l)\s?\d{1,2}\s+(?:right|r)|(?:right|r)\s?\d{1,2}\s+(?:left|l))\s?\d{1,2}\s+(?:left|right|l|r)"
    r"\s?\d{1,2}\b",
    re.IGNORECASE,
)
_DIAL_THINGS = frozenset(["combo", "combination", "safe", "dial", "lock", "padlock", "vault", "locker", "tresor"])


def _recovery_phrase(text: str) -> bool:
    for m in _NUMBERED_PHRASE.finditer(text):
        named = _PHRASE_NAME.search(text, max(0, m.start() - 120), m.start()) or re.search(
            r"\bword\s*$", text[max(0, m.start() - 12) : m.start()], re.IGNORECASE
        )
        if named and _in_order(m.group()):
            return True
    for name in _PHRASE_NAME.finditer(text):
        for m in _PHRASE.finditer(text, name.end(), name.end() + 320):
            if not _FUNCTION_WORDS & set(m.group().split()):
                return True
    return False


def _in_order(listed: str) -> bool:
    numbers = [int(n) for n in re.findall(r"\d{1,2}", listed)]
    return numbers == list(range(1, len(numbers) + 1))


# Each pattern runs only when one of its words is in the text (long messages stay cheap).
_TOTP_WORDS = frozenset(["totp", "fa", "mfa", "otp", "authenticator"])  # "2fa" is read as "2", "fa"
_DIAL_WORDS = frozenset(["left", "right", "l", "r"])
_PHRASE_WORDS = frozenset(
    [
        *("phrase", "words", "sentence", "mnemonic", "seed", "frase", "word", "wiederherstellungsphrase"),
        *("herstelzin", "фраза", "фразу", "фразы", "фраз", "ifadesi", "kelimeleri", "fraza"),
    ]
)
_WARNING_WORDS = frozenset(
    [
        *("share", "give", "tell", "podawaj", "udostępniaj", "udostepniaj", "przekazuj", "deel", "dela", "del"),
        *("kimseyle", "paylaşmayın", "paylasmayin", "teile", "gib", "niemals", "partagez", "communiquez"),
        *("transmettez", "donne", "donnez", "compartas", "compartir", "comparta", "compart", "condividere"),
        *("comunicare",),
        *("compartilhe", "partilhe", "compartilhar", "никому", "сообщайте", "älä", "ikke"),
    ]
)


_PHRASE_IN_SCRIPT = re.compile(r"フレーズ|助记词|助記詞|短语|문구|구문|วลี")


def copied_key(text: str, words: frozenset[str]) -> bool:
    """A recovery phrase, an authenticator's setup key or a dial combination (no digits
    needed, so not behind the digit count)."""
    return bool(
        (words & _TOTP_WORDS and _TOTP_KEY.search(text))
        or (words & _DIAL_WORDS and _DIAL.search(text))
        or (words & _DIAL_WORDS and words & _DIAL_THINGS and _SPACED_DIAL.search(text))
        or (
            (words & _PHRASE_WORDS or (not text.isascii() and _PHRASE_IN_SCRIPT.search(text)))
            and _recovery_phrase(text)
        )
    )


def service_code(text: str, words: frozenset[str]) -> bool:
    """ "Your Steam Guard code: 7KQ4F": a code a service sent, letters and digits."""
    if "your" not in words:
        return False
    return any(not _NOT_A_ONE_TIME_CODE.search(m.group("what")) for m in _YOUR_CODE_IS.finditer(text))


def one_time_code(text: str, words: frozenset[str]) -> bool:
    if text.count("-") >= 7 and _BITLOCKER_KEY.search(text):
        return True
    if backup_codes(text, words):
        return True
    for m in _IS_YOUR_CODE.finditer(text):
        if _VALUE_AT_END.search(text, max(0, m.start() - 12), m.start()) and not _NOT_A_ONE_TIME_CODE.search(
            m.group()[: m.group().lower().rfind("code")].rstrip() if "code" in m.group().lower() else ""
        ):
            return True
    present = words & _WARNING_WORDS
    if not present:
        return False
    for warning_start in _warnings(text, present):
        # the code comes before the warning, in the same message
        before = text[max(0, warning_start - 160) : warning_start]
        for value in _VALUE_RE.finditer(before):
            near = before[max(0, value.start() - 80) : value.start()] + " " + before[value.end() : value.end() + 40]
            if any(not _NOT_A_ONE_TIME_CODE.search(near[: w.start()]) for w in _CODE_WORD_RE.finditer(near)):
                return True
    return False


def _warnings(text: str, present: frozenset[str]) -> list[int]:
    """Where each never-share warning starts, tried only around its own words (the
    alternation tried at every position of a long message costs milliseconds)."""
    lower = text.lower()
    starts: set[int] = set()
    for stem in present:
        at = lower.find(stem)
        while at != -1:
            m = _SHARE_WARNING.search(text, max(0, at - 25), at + len(stem) + 30)
            if m is not None:
                starts.add(m.start())
            at = lower.find(stem, at + len(stem))
    return sorted(starts)


# A code named by the app, token or scheme that makes it: an authenticator, a bank's TAN or
# secure key, Poland's BLIK, Steam Guard, a "one-time code" in more languages; then the value
# a few words on ("steam guard code R7K2Q", "kod blik 728 416", "your TAN for the transfer is
# 849120", "microsoft authenticator says 881 640", "de eenmalige code ... is 73 81 04").
_MAKER = (
    r"steam\s+guard(?:\s+(?:backup|mobile))?|blik|(?-i:(?:push|sms|chip|photo|m|i)?[\s\-]?TAN)"
    r"|(?:microsoft|google|authy|duo|okta|aegis)\s+authenticator|authenticator(?:\s+app)?|secure\s?key|digipass"
    r"|securid|rsa\s+token|eenmalige|engangskode\w*|engångskod\w*|einmal(?:code|passwort|kennwort)"
    r"|(?:code|mot\s+de\s+passe)\s+[àa]\s+usage\s+unique|(?:c[óo]digo|clave)\s+de\s+un\s+solo\s+uso|codice\s+monouso"
    r"|jednorazow\w+|kod\s+jednorazowy|kertak[äa]ytt[öo]inen|mitid|bankid|itsme|стим\s*гард|steam\s*гард"
    # a bank's card reader that signs a login or a payment (chipTAN, PINsentry)
    r"|card\s+reader|kartenleser|lecteur\s+de\s+carte|pin\s?sentry"
)
_NAMED_CODE = re.compile(
    r"(?<![\w])(?:" + _MAKER + r")(?![\w])(?P<gap>[^\d\n.!?]{0,80}?)"
    r"(?P<value>(?<![\w.,/:\-*•])(?:\d{3}[ \-]\d{3}|\d\d \d\d \d\d|\d{4,8}|(?=[A-Z\d]*\d)(?=\d*[A-Z])[A-Z\d]{5})"
    r"(?![\w/:]|[.,]\d|[ \-]\d))"
    r"(?!\s*(?:%|€|\$|£|sec|secs|seconds?|min|mins|minutes?|hours?|days?|years?|times|digits|tries|attempts|users?"
    r"|z[łl]|pln|kr|eur|usd|gbp)\b)",
    re.IGNORECASE,
)
_NOT_THE_CODE_GAP = re.compile(
    r"\b(?:since|version|v|ago|attempts?|tries|digits?|order|invoice|ref|reference|costs?|price|limit|fee|fees"
    r"|model|serial|users?|customers?|until|till|expires?|expired|every|per|receipt|printed|terminal|"
    + FILED_AS
    + r")\b",
    re.IGNORECASE,
)
_MAKER_WORDS = frozenset(
    [
        *("steam", "blik", "tan", "pushtan", "smstan", "mtan", "itan", "chiptan", "phototan", "authenticator"),
        *("secure", "securekey", "digipass", "securid", "rsa", "eenmalige", "einmalcode", "einmalpasswort"),
        *("einmalkennwort", "usage", "uso", "monouso", "jednorazowy", "jednorazowe", "jednorazowa"),
        *("jednorazowego", "mitid", "bankid", "kertakäyttöinen", "kertakayttoinen", "reader", "kartenleser"),
        *("lecteur", "pinsentry", "sentry", "itsme", "стим", "гард", "стимгард"),
    ]
)


def named_one_time_code(text: str, words: frozenset[str]) -> bool:
    if words.isdisjoint(_MAKER_WORDS) and not any(w.startswith(("engangskode", "engångskod")) for w in words):
        return False
    return any(not _NOT_THE_CODE_GAP.search(m.group("gap")) for m in _NAMED_CODE.finditer(text))
