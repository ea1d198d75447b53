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


_KEEPER_NAME = re.compile(
    r"(?:secrets?\s*manager|key\s*vault|1password|bitwarden|lastpass|keepass|keychain|vault|dashlane)(?![A-Za-z0-9])",
    re.IGNORECASE,
)


def cjk_password(text: str) -> bool:
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
