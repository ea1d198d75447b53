"""Passwords in Chinese, Japanese and Korean, which write no space between the word and its
value ("密码是abc12345", "パスワードはhunter2です", "비밀번호는hunter2")."""

from __future__ import annotations

import re

from engram.domain.sensitive.secret_values import MASKED, PLACEHOLDER
from engram.domain.sensitive.secret_words import NOT_A_VALUE

# Chinese, Japanese and Korean write no space between the word and what follows it
# ("密码是abc12345", "パスワードはhunter2です", "비밀번호는hunter2"), so the word-bounded
# rules never see the word. Here the word, any particles or marks, then a run of
# ASCII: in CJK text that run is the value.
_CJK_PASSWORD_RE = re.compile(
    r"(?:密码|密碼|口令|パスワード|暗証番号|暗証コード|シークレット|비밀번호|비번|(?:PIN|pin)\s?(?:码|碼|コード|번호))"
    r"\s*(?:(?:是|为|為|：|:|は|が|を|는|은|가|이|=|-|—|「|『|“)\s*)*"
    r"(?P<v>[!-~]{4,})"
)


# ... or a few words of the same script after the word, then a colon and the value
# ("Wi-Fiのパスワード覚えておいて：sakura_mochi_2024", "와이파이 비밀번호 기억해줘: ...").
_CJK_PASSWORD_LATER_RE = re.compile(
    r"(?:密码|密碼|口令|パスワード|パスコード|暗証番号|비밀번호|비번|암호)[^!-~\n]{1,14}?[：:]\s*(?P<v>[!-~]{4,})"
)


# A counter or a unit after a number in Chinese, Japanese or Korean: the number counts or
# measures ("4本", "4位", "4桁", "8자리", "3000万円", "12号室"), it opens nothing.
CJK_COUNTER = (
    r"\s*(?:桁|位|本|個|个|回|次|円|元|块|塊|원|자리|개|번째|년|年|人|名|分|時|日|秒|号|番|階|층|호|歳|살|件|枚|万|萬|千|百"
    r"|億|ドル|달러|%|％)"
)
# A PIN or a pass code named in Chinese, Japanese or Korean, its digits run into the script
# around them ("PINは4471です", "我的PIN是7731", "핀번호 3390이에요", "パスコードは1234"):
# the word, a particle, then four to twelve digits that no counter word follows ("PINは4本",
# "PIN码有4位", "4桁", "8자리": how many, not which) and no more digit groups (a phone number).
_CJK_PIN_RE = re.compile(
    r"(?:(?<![A-Za-z])(?:PIN|Pin|pin)(?:码|碼|コード|番号|번호)?|暗証番号|パスコード|핀\s?번호|비밀번호|비번|密码|密碼)"
    r"\s*(?:(?:是|为|為|：|:|は|が|を|는|은|가|이|=)\s*)*"
    r"(?P<v>\d{4,12})(?![\d.,\-‐－]*\d)(?!" + CJK_COUNTER + ")"
)


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_KEEPER_NAME = re.compile(
    r"(?:secrets?\s*manager|key\s*vault|1password|bitwarden|lastpass|keepass|keychain|vault|dashlane)(?![A-Za-z0-9])",
    re.IGNORECASE,
)


def cjk_password(text: str) -> bool:
    if any(_CJK.search(m.group()) or _CJK.match(text, m.end()) for m in _CJK_PIN_RE.finditer(text)):
        return True  # (in CJK text: "pin 1234" alone is read by the English rules, a board's pin too)
    for m in (*_CJK_PASSWORD_RE.finditer(text), *_CJK_PASSWORD_LATER_RE.finditer(text)):
        value = m.group("v").strip(".,;:!?)(\"'」』”")
        if len(value) < 4 or "://" in value or value.lower().startswith("www."):
            continue
        if PLACEHOLDER.match(value) or MASKED.fullmatch(value) or value.lower() in NOT_A_VALUE:
            continue
        if _KEEPER_NAME.match(text, m.start("v")):  # "パスワードはSecrets Managerに移しました": where it is now
            continue
        return True
    return False
