"""Passwords in Chinese, Japanese and Korean, which write no space between the word and its
value ("密码是abc12345", "パスワードはhunter2です", "비밀번호는hunter2")."""

from __future__ import annotations

import re

from engram.domain.sensitive.prefilter import keyed
from engram.domain.sensitive.secret_values import MASKED, PLACEHOLDER
from engram.domain.sensitive.secret_words import NOT_A_VALUE

# What a password was changed or set to ("数据库密码改成 Longjing#Hangzhou_66 了", "密码设为 ...",
# "パスワードを ... に変更" is read by the word and its particle).
_CHANGED_TO = r"改成|改为|改為|换成|換成|设成|設成|设为|設為|设置为|設置為|变成|變成|更新为|更新為|重置为|重置為"
# Chinese, Japanese and Korean write no space between the word and what follows it
# ("密码是abc12345", "パスワードはhunter2です", "비밀번호는hunter2"), so the word-bounded
# rules never see the word. Here the word, any particles or marks, then a run of
# ASCII: in CJK text that run is the value.
_CJK_PASSWORD_RE = re.compile(
    r"(?:密码|密碼|口令|パスワード|暗証番号|暗証コード|シークレット|비밀번호|비번|(?:PIN|pin)\s?(?:码|碼|コード|번호))"
    r"\s*(?:(?:是|为|為|：|:|は|が|を|는|은|가|이|=|-|—|「|『|“|" + _CHANGED_TO + r")\s*)*"
    r"(?P<v>[!-~]{4,})"
)


# ... or a few words of the same script after the word, then a colon and the value
# ("Wi-Fiのパスワード覚えておいて：sakura_mochi_2024", "와이파이 비밀번호 기억해줘: ...").
_CJK_PASSWORD_LATER_RE = keyed(
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
        value = m.group("v").strip(".,;:!?)(\"'」』”{}[]")  # (and a JSON object's braces: '":"********"}}')
        if len(value) < 4 or "://" in value or value.lower().startswith("www."):
            continue
        if PLACEHOLDER.match(value) or MASKED.fullmatch(value) or value.lower() in NOT_A_VALUE:
            continue
        if _KEEPER_NAME.match(text, m.start("v")):  # "パスワードはSecrets Managerに移しました": where it is now
            continue
        return True
    return _password_in_script(text)


# A password written in the script itself after its word and a copula ("我的密码是猫猫爱吃鱼",
# "パスワードはさくらもちです", "와이파이 비번은 떡볶이좋아"), quoted or ending the clause: one
# word-run with no space, that none of the words below makes a description, a question, a
# state or a rule ("密码是什么？", "密码是我的生日", "パスワードは正しいです", "비밀번호는 바꿨어").
_QUOTED_IN_SCRIPT = re.compile(
    r"(?:密码|密碼|口令|パスワード|パスコード|暗証番号|合言葉|비밀번호|비번|암호|패스워드)\s*(?:是|为|為|叫|：|:|は|는|은)"
    r"[\s、,，]*[「『“\"'](?P<v>[^」』”\"'\n]{2,30})[」』”\"']"
)
_END = r"(?=[。！!，,；;、~～\s]|$)"
_ZH_IN_SCRIPT = keyed(r"(?:密码|密碼|口令)\s*(?:是|为|為|：|:)\s*(?P<v>[\u4e00-\u9fff]{3,12})" + _END)
_JA_IN_SCRIPT = re.compile(
    r"(?:パスワード|パスコード|合言葉)は[\s、,]*(?P<v>[ぁ-んァ-ヶー一-龯々]{3,20}?)"
    r"(?:です|でした|だよ|だね|だ|よ)?" + _END
)
# (Korean sets its words apart with spaces: only a clause's end ends the value)
_KO_END = r"(?=\s*(?:[.!~。,]|$))"
_KO_IN_SCRIPT = keyed(
    r"(?:비밀번호|비번|암호|패스워드)(?:는|은)\s*(?P<v>[가-힣]{2,14}?)"
    r"(?:이야|야|예요|이에요|입니다|이다|임|요)?" + _KO_END
)
# Words that make the clause say what the password is like, where, whose or how many
# characters, that it changed or is unknown, or ask for it.
_DESCRIBED = re.compile(
    r"的|什么|什麼|多少|啥|哪|吗|嗎|呢|了|^[不没沒未我你他她您]|空|对|對|错|錯|正确|正確|一样|一樣|相同|秘密|保密|默认|默認|原来|原來"
    r"|上次|那个|这个|生日|数字|數字|字母|位数|位數|号码|號碼|手机|手機|电话|電話|身份证|名字|拼音|英文|中文|大写|小写|符号|设置|設置"
    r"|修改|改|换|換|忘|加密|隐藏|隱藏|简单|簡單|复杂|複雜|通过|通過|发送|發送|短信|邮件|郵件|邮箱|收到|需要|必|填|项|可选|包含|至少"
    r"|最少|保存|写在|記在|记在|放在|区分|大小写|明文|密文|随机|隨機|生成|管理员|安全|强|弱|长|短|初始|临时|臨時|有效|无效|無效"
    # (a password named again is what kind it is: "密码是初始密码", "パスワードは前と同じパスワード")
    r"|密码|密碼|口令|パスワード|パスコード|비밀번호|비번|암호|패스워드"
    # (Japanese words that say what it is like: "大丈夫", "簡単", "大切"; the copula is cut first)
    r"|大丈夫|問題|平気|簡単|複雑|大切|大事|重要|危険|完璧|無効|有効|初期|仮|一時|一緒|共有|不明|同様"
    # (expired or void: "ワンタイムパスワードは期限切れ", "验证码已过期", "인증번호가 만료")
    r"|期限|失効|切れ|過期|过期|失效|到期|作废|作廢|만료|폐기"
    r"|何|なに|なん|正し|違|同じ|秘密|内緒|ないしょ|ひみつ|変更|設定|未|済|必要|以上|以下|文字|桁|英数|記号|誕生日|名前|番号|忘れ"
    r"|わから|分から|知ら|教え|なし|無し|いつも|共通|送|メール|メモ|保存|管理|入力|確認|登録|リセット|再設定|発行|別途|後で|あとで"
    r"|(?:い|ます|ました|ません|った|って|して|する|れる|られる|てある|ている|てる|てた|たい|ておく|ない|そう)$"
    # (a particle after a kanji or katakana word: "ルーターの裏のシールに書いてある")
    r"|[ァ-ヶー一-龯々][のにをがでとへもや]|書"
    r"|비밀|생일|몰라|모르|없|뭐|무엇|어디|같|바꿨|바뀌|변경|잊|까먹|틀렸|맞|자리|이상|이하|숫자|문자|영문|특수|대문자|소문자|전화"
    r"|번호|이름|알려|기억|설정|초기화|그대로|예전|저번|어려|쉬워|길어|짧아|안전|위험|강력|약해|약함|중요|필수|나중|문자|메일|보내"
    # (a Korean word ending in a particle or a verb's ending: "나중에", "문자로", "알려줄게", "한다")
    r"|(?:[에로서께도만을를와과게다고면니까]|한테)$"
)


def _password_in_script(text: str) -> bool:
    if text.isascii():
        return False
    for m in (*_QUOTED_IN_SCRIPT.finditer(text), *_ZH_IN_SCRIPT.finditer(text)):
        if _a_value_in_script(m.group("v")):
            return True
    return any(
        _a_value_in_script(m.group("v")) and not _past_tense(m.group("v"))
        for m in (*_JA_IN_SCRIPT.finditer(text), *_KO_IN_SCRIPT.finditer(text))
    )


# A Japanese copula or a sentence's particle after the word: "長いです" is "長い" (long), an
# adjective's ending the described words read at the end.
_JA_COPULA = re.compile(r"(?:です|でした|だよ|だね|だ|よ|ね)+$")


def _a_value_in_script(value: str) -> bool:
    value = _JA_COPULA.sub("", value.strip()) or value.strip()
    return not (
        _DESCRIBED.search(value) or PLACEHOLDER.match(value) or MASKED.fullmatch(value) or value.lower() in NOT_A_VALUE
    )


def described_in_script(value: str) -> bool:
    """A value in CJK script that is a sentence about the password (where it is, who changed it),
    not the password ("ルーターの裏のシールに書いてあります", "我换过了", "어제 바꿨어")."""
    # (it starts in the script: "8f3e1c9a...，店铺的ERP同步失败" is a key, then a sentence)
    return _CJK.match(value.lstrip("\"'“「")) is not None and not _a_value_in_script(value)


def _past_tense(word: str) -> bool:
    """A Korean verb in the past ("바꿨어", "했어"): a syllable closed by ㅆ says what was done."""
    return any("가" <= c <= "힣" and (ord(c) - 0xAC00) % 28 == 20 for c in word)
