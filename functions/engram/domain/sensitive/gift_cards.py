"""A gift card's code: a bearer credential, by policy (docs/security.md, "Values that grant
nothing, by policy"): whoever types it spends the value loaded on it, as a licence key grants
the use it was bought for ("PSN gift card code XK4R-9QLM-T7ZP", "Apple gift card
2X7K9Q4M3TZ8PLW5", "the code is GC-8XQ2-7LMP-4TZV").

The code is read after a gift card's word, in the languages the filter reads, in the shape
stores print it: capitals and digits mixed, in one run of ten or more or in dashed groups.

Not one: a discount or promo code (a word and a number, "WINTER15", "PRIYA-GIFT-2231", "10%
off"), a card's serial or order number, a balance, a code said redeemed or used (it grants
nothing left), and a card's digits alone (the card rules read those).
"""

from __future__ import annotations

import re

from engram.domain.sensitive.prefilter import keyed

# (three patterns: each is looked for only in a text holding one of its words)
_GIFT_WORDS = (
    keyed(
        r"(?<![\w])(?:gift\s*cards?|gift\s*codes?|egift\s*cards?|giftcards?|claim\s+code|redeem\s+code"
        r"|redemption\s+code)(?![\w])",
        re.IGNORECASE,
    ),
    keyed(
        r"(?<![\w])(?:psn|playstation|xbox|steam|apple|itunes|app\s+store|google\s+play|nintendo|eshop|roblox"
        r"|razer\s+gold|netflix|spotify|amazon)\s+(?:gift\s+)?(?:card|code)(?![\w])",
        re.IGNORECASE,
    ),
    keyed(
        r"(?<![\w])(?:cartes?[\s\-]cadeaux?|tarjetas?\s+(?:de\s+)?regalo|cart[ãa]o[\s\-]presente|vale[\s\-]presente"
        r"|buono\s+regalo|carta\s+regalo|cadeaukaart\w*|cadeaubon\w*|geschenkkarte\w*|geschenkgutschein\w*"
        r"|gutscheinkarte\w*|presentkort\w*|gavekort\w*|lahjakort\w*|kart\w?\s+podarunkow\w*|hediye\s+kart\w*"
        r"|подарочн\w+|подарунков\w+|δωροκάρτ\w*|darčekov\w+|dárkov\w+|ajándékkártya\w*|kartu\s+hadiah"
        r"|thẻ\s+quà\s+tặng)(?![\w])"
        r"|ギフトカード|ギフトコード|기프트\s*카드|상품권|礼品卡|禮品卡|购物卡|充值卡|بطاقة\s+(?:ال)?هدايا|כרטיס\s+מתנה|บัตรของขวัญ",
        re.IGNORECASE,
    ),
)
# The code: capitals and digits mixed, one run of ten to twenty, or three to five dashed groups.
_VALUE = re.compile(r"(?<![\w\-])(?:[A-Z0-9]{2,6}(?:-[A-Z0-9]{3,6}){2,4}|[A-Z0-9]{10,20})(?![\w\-])")
_NOT_THE_CODE = re.compile(
    r"(?<![\w])(?:serial|order|invoice|receipt|tracking|balance|card\s+(?:no|number)|number|nr|no\.|#|ending)(?![\w])",
    re.IGNORECASE,
)
# A code spent or a discount's: what it grants is gone, or was never the card's value.
_SPENT = re.compile(
    r"(?<![\w])(?:(?:already\s+)?redeemed|(?:been|was|were|already)\s+used|scratched|used\s+up|%|off|discount|promo"
    r"|public|newsletter|coupon|einmal\s+einl[öo]sbar|déjà\s+utilis[ée]|ya\s+(?:canjead|usad)[oa]|j[áa]\s+usad[oa])(?![\w])",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[\n;。!?]|[.](?:\s|$)")
_REACH = 60


def gift_card_code(text: str) -> bool:
    """A gift card's code after its word, not spent and not a discount's."""
    for word in (w for pattern in _GIFT_WORDS for w in pattern.finditer(text)):
        rest = text[word.end() : word.end() + _REACH]
        end = _CLAUSE_END.search(rest)
        rest = rest if end is None else rest[: end.start()]
        for m in _VALUE.finditer(rest):
            if _a_code(m.group()) and not _NOT_THE_CODE.search(rest, 0, m.start()):
                return not _SPENT.search(text)
    return False


def _a_code(value: str) -> bool:
    digits = sum(c.isdigit() for c in value)
    letters = sum(c.isalpha() for c in value)
    if digits < 3 or letters < 3:
        return False  # (a card's digits, or a word)
    # a generated code: no group a word ("PRIYA-GIFT-2231"), a short prefix at most ("GC-")
    return not any(part.isalpha() and len(part) >= 4 for part in value.split("-"))
