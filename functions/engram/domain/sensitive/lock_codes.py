"""Codes of what they lock: safes, lockboxes, combinations, intercoms, alarm panels, phone
unlock codes, in eight languages and Japanese, Chinese and Korean."""

from __future__ import annotations

import re

# A lock, safe, alarm, intercom or phone-unlock code, in the languages above: the thing it
# opens, a few words, a separator that says "is" or "opens with", then the digits (often
# spaced or dashed: "5-2-7-1", "5 8 3 0"). Bare "code" is not enough (area, zip, error
# codes); the thing locked is.
_LOCKED = (
    r"combo|combination|kombination|combinaison|combinaci[óo]n|combina[çc][ãa]o|combinazione|safe|tresor|coffre(?:-fort)?"
    r"|caja\s+fuerte|cofre|cassaforte|lock\s?box|key\s?box|key\s+safe|schl[üu]sselkasten|schl[üu]sselbox|padlock"
    r"|vorh[äa]ngeschloss|zahlenschloss|cadenas|candado|cadeado|lucchetto|alarmanlage|alarm\s+panel|intercom|interphone"
    r"|domofon\w*|citofono|portero|interfone|gegensprechanlage|entsperrcode|sperrcode|entsperr-?pin|pinkod(?:en)?"
    r"|pinkode(?:n)?|portkod(?:en)?|portkode(?:n)?|d[øo]rkode(?:n)?|ovikoodi|porttikoodi|locker(?=[^.\n!?;]{0,40}?\b(?:code|combo|combination|pin)\b)|lock\s+screen"
    r"|c[óo]digo\s+d[oa]\s+(?:port[ãa]o|porta|cofre|alarme|pr[ée]dio)|code\s+de\s+la\s+porte(?:\s+d['’]entr[ée]e)?"
)
_LOCK_SEP = (
    r"(?::|=|–|—|-|,?\s*it['’]?s|is(?:\s+set\s+to)?|set\s+to|was|ist|lautet|geht\s+mit|mit|är|er|é|es|est"
    r"|c['’]est|je|to|with|opens\s+with)"
)
_LOCK_CODE_RE = re.compile(
    r"(?<![\w])(?:" + _LOCKED + r")(?![\w])[^.\n!?;]{0,40}?"
    r"(?:(?<![\w])(?:code|combo|pin|kod|koden|kode|c[óo]digo|codice)(?![\w])\s*"
    + _LOCK_SEP
    + r"?|\s*"
    + _LOCK_SEP
    + r")\s*"
    r"(?P<value>\d(?:[ \-]?\d){2,7}|\d{1,3}[A-Za-z]\d{1,4})(?![\w/:]|[.,]\d)"
    r"(?!\s*(?:mg|kg|g|ml|l|cm|mm|km|m|%|€|\$|£|usd|eur|gbp|cents?|euros?|dollars?|pounds?|years?|days?|hours?"
    r"|minutes?|min|times|people|pm|am|h|uhr)\b)",
    re.IGNORECASE,
)
_CJK_LOCK_CODE_RE = re.compile(
    r"(?:オートロック|暗証|金庫|ロッカー|ダイヤル|キーボックス|门禁|密码锁|保险箱|도어락|현관|금고)[^\d。\n]{0,10}?"
    r"(?:番号|コード|码|비밀번호|번호)?\s*(?:は|：|:|是|는|은)\s*(?P<value>\d{3,8})(?!\d)"
)


# One-time codes in Chinese, Japanese and Korean, which run on into their value.
_CJK_ONE_TIME_CODE_RE = re.compile(
    r"(?:验证码|驗證碼|校验码|动态码|動態碼|認証コード|確認コード|認証番号|ワンタイムパスワード|인증\s*번호|인증\s*코드)"
    r"[^\d。\n]{0,6}?(?P<value>\d{4,8})(?!\d)"
)


def lock_code(text: str) -> bool:
    cjk = () if text.isascii() else (*_CJK_LOCK_CODE_RE.finditer(text), *_CJK_ONE_TIME_CODE_RE.finditer(text))
    # "set to 0-0-0" is the reset, not the code
    return any(set(m.group("value")) - {"0", " ", "-"} for m in (*_LOCK_CODE_RE.finditer(text), *cjk))
