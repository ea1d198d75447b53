"""Codes people forward or copy as they came: a one-time code SMS ("284 119 is your one time
password", "Din MitID-kode er 219 044. Del den aldrig med andre."), a list of backup codes
read off a sheet, a BitLocker recovery key. The SMS carries its own tell in every
language: the value sits beside a code word and a warning never to share it."""

from __future__ import annotations

import re

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
    r"|status|dress|tax|sort|swift|bic|bank|qr|bar|source|reference)[\s\-]?$",
    re.IGNORECASE,
)
_SHARE_WARNING = re.compile(
    r"never\s+share|(?:do\s*n['’]?o?t|don['’]t|do\s+not)\s+(?:share|give|tell)|not\s+(?:share|give)\s+(?:this|it|the)"
    r"|nie\s+(?:podawaj|udost[ęe]pniaj|przekazuj)|deel\s+(?:deze\s+code|hem|het|de\s+code)\s+(?:met\s+niemand|niet)"
    r"|dela\s+(?:aldrig|inte)|del\s+(?:den|koden|aldrig)|kimseyle\s+payla[şs]|payla[şs]may[ıi]n"
    r"|(?:teile|gib)\s+(?:ihn|den\s+code|diesen\s+code|sie)\s+(?:nicht|mit\s+niemandem|niemals)|niemals\s+weiter"
    r"|ne\s+(?:le\s+)?(?:partagez|communiquez|transmettez)|no\s+(?:lo\s+)?(?:compartas|compartir|comparta)"
    r"|nunca\s+compart|non\s+(?:condividere|comunicare)|n[ãa]o\s+(?:compartilhe|partilhe|compartilhar)"
    r"|никому\s+не|не\s+сообщайте|älä\s+kerro|ikke\s+del",
    re.IGNORECASE,
)
# "284 119 is your one time password", "G-482917 is your Google verification code".
_VALUE_IS_YOUR_CODE = re.compile(
    _VALUE + r"\s+(?:is|est|ist|es|är|er|is\s+je|to)\s+(?:your|votre|ton|dein|ihr|tu|su|din|je|tw[óo]j)\s+"
    r"(?:[\w\-]+\s+){0,3}?(?:one[\s\-]time\s+(?:password|code|passcode|pin)|verification\s+code|security\s+code"
    r"|login\s+code|sign[\s\-]?in\s+code|otp|code\s+de\s+v[ée]rification|c[óo]digo(?:\s+de\s+\w+)?"
    r"|(?:best[äa]tigungs|verifizierungs|sicherheits|anmelde)code|(?:\w+\s+)?code|kod|kode)\b",
    re.IGNORECASE,
)
_VALUE_RE = re.compile(_VALUE)
_CODE_WORD_RE = re.compile(_CODE_WORD, re.IGNORECASE)
# Backup codes read off their sheet: two or more codes of one shape after the words.
_BACKUP_CODE_LIST = re.compile(
    r"\b(?:recovery|backup|2fa|mfa|scratch)\s+codes\b[^\n]{0,60}?"
    r"(?P<code>\d{4,5}[\- ]\d{4,5})(?:\s*,\s*|\s+)\d{4,5}[\- ]\d{4,5}\b",
    re.IGNORECASE,
)
# A BitLocker recovery key: 48 digits in eight groups of six.
_BITLOCKER_KEY = re.compile(r"(?<![\d\-])\d{6}(?:-\d{6}){7}(?![\d\-])")


def one_time_code(text: str) -> bool:
    if _BITLOCKER_KEY.search(text) or _BACKUP_CODE_LIST.search(text):
        return True
    if _VALUE_IS_YOUR_CODE.search(text):
        return True
    for warning in _SHARE_WARNING.finditer(text):
        # the code comes before the warning, in the same message
        before = text[max(0, warning.start() - 160) : warning.start()]
        for value in _VALUE_RE.finditer(before):
            near = before[max(0, value.start() - 80) : value.start()] + " " + before[value.end() : value.end() + 40]
            words = [w for w in _CODE_WORD_RE.finditer(near)]
            if any(not _NOT_A_ONE_TIME_CODE.search(near[: w.start()]) for w in words):
                return True
    return False
