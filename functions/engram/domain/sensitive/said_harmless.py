"""A value its writer says grants nothing: public by design ("send it to my trc20 address
T..., its public", "bank branch code 0240 (public, on the website)", "not secret per the
docs") or already used up ("gift card pin 2291, already spent", "prepaid token ...
already loaded into the meter"). Said of the value as a whole, with no contrast ("the id is
public but the password isn't", "the old one is spent, the new code is ...") and no password
or PIN word: a password said to be public is still a password someone can log in with."""

from __future__ import annotations

import re

from engram.domain.sensitive.secret_words import PASSWORD_WORD

_SAID_HARMLESS = re.compile(
    r"\b(?:it['’]?s|its|is|are|they['’]?re|that['’]?s|all)\s+(?:all\s+|totally\s+|completely\s+)?public\b"
    r"|\(\s*public\b|\bpublic\s+(?:info|information|knowledge|record|anyway)\b"
    r"|\bnot\s+(?:a\s+)?(?:secret|sensitive)\b|\b(?:safe|fine|ok|okay)\s+to\s+(?:share|log|post|publish|ship|commit|print)\b"
    r"|\bjust\s+an?\s+(?:identifier|id)\b|\bpublic\s+number\b"
    # a reference only, not a password ("รหัสนัดหมาย: TH-EMB-30482 (ไม่ใช่รหัสผ่าน ใช้สำหรับอ้างอิงเท่านั้น)")
    r"|\b(?:for\s+)?reference\s+only\b|\bjust\s+a\s+reference\b|\bnur\s+(?:zur|als)\s+referenz\b"
    r"|\bsolo\s+(?:de\s+|como\s+)?referencia\b|\bapenas\s+(?:para\s+|como\s+)?refer[êe]ncia\b"
    r"|ไม่ใช่รหัสผ่าน|สำหรับอ้างอิง|参照用|参考用|仅供参考|僅供參考|참고용"
    # spam's code, which opens nothing ("a 'you won a prize' text with code WIN2024 — it's spam")
    r"|\b(?:it['’]?s|its|is|that['’]?s|this\s+is)\s+(?:just\s+)?(?:spam|phishing)\b(?!\s*\?)"
    # used up
    r"|\balready\s+(?:been\s+)?(?:spent|used|redeemed|loaded|applied|claimed|topped\s+up|entered|consumed)\b"
    r"|\bya\s+(?:usad[oa]|canjead[oa]|gastad[oa]|cargad[oa])\b|\bbereits\s+(?:eingelöst|verbraucht|benutzt|verwendet)\b"
    r"|\bdéjà\s+(?:utilisée?|consommée?)\b|\bjá\s+(?:usad[oa]|utilizad[oa]|gast[oa])\b",
    re.IGNORECASE,
)
# A contrast: the harmless one is another value than the secret the text gives.
_CONTRAST = re.compile(
    r"\b(?:but|however|though|unlike|whereas|while|isn['’]?t|is\s+not|are\s+not|aren['’]?t|keep|private|new|other"
    r"|mas|pero|aber|mais|ma|maar|men|ale|sondern)\b",
    re.IGNORECASE,
)
_PASSWORD_OR_PIN = re.compile(PASSWORD_WORD + r"|(?<![\w])(?:m-?pin|pin|passcode|passphrase)(?![\w])", re.IGNORECASE)


# Each phrase holds one of these (the alternation is tried only then: long messages stay cheap).
_STEMS = ("public", "secret", "sensitive", " to ", "identifier", " id", "already", "ya ", "bereits", "déjà", "já ")
_MORE_STEMS = ("referen", "spam", "phishing", "ไม่ใช่", "อ้างอิง", "参照", "参考", "參考", "참고")


def said_harmless(text: str) -> bool:
    lowered = text.lower()
    # (the contrast first: its words are in most long texts and found near their start, where
    # the phrases are read through to the end; each is a pure check of the text)
    return (
        any(stem in lowered for stem in _STEMS + _MORE_STEMS)
        and _CONTRAST.search(text) is None
        and _SAID_HARMLESS.search(text) is not None
        and _PASSWORD_OR_PIN.search(text) is None
    )
