"""An access code after the word that names it ("door code: 4471", "pin 0917"): not
another kind of code's number (a zip, area or promo code), India's postal PIN code, nor a
lock in a game or a story."""

from __future__ import annotations

import re

from engram.domain.sensitive.made_up_locks import made_up_place
from engram.domain.sensitive.secret_words import CODE_WORDS, FILLER, SEP

_CODE_RE = re.compile(
    r"(?<![\w])(?:"
    + CODE_WORDS
    + r")(?![\w])"
    + FILLER
    + r"(?:\s*,)?"
    + SEP
    + r"(?P<value>[#*]?\d(?:[\dA-D\-#*]|\s\d){2,})(?![\w])",
    re.IGNORECASE,
)


def named_code(text: str) -> bool:
    """A code after its word ("door code: 4471"), not another kind of code's number nor a
    lock in a game or a story."""
    return any(
        not _postal_pin(text, m)
        and not OTHER_CODE.search(text, max(0, m.start() - 24), m.start())
        and not LAST_DIGITS.search(text, m.start(), m.start("value"))
        and not _payment_authorisation(text, m)
        and not (m.group()[:3].lower() == "pin" and BOARD.search(text))
        and not _SOCIAL.search(text, max(0, m.start() - 8), m.start())
        for m in _CODE_RE.finditer(text)
    ) and not made_up_place(text)


# A "security number" after "social" is a Social Security number, an id, never an alarm's or a
# lock's code (held-out N: "EMPLOYEES SOCIAL SECURITY NUMBER  5 3 8-2l-774O" from a photo, one
# dictated "five one two dash ..."): the id rules read it.
_SOCIAL = re.compile(r"social\s*$", re.IGNORECASE)


# A card payment's authorisation code, as a receipt or a payment note gives it ("payment
# taken, auth code 084411", "receipt: ... auth code 0A7731, terminal 0042"): it approved one
# payment and opens nothing. ("the auth code from the card reader" is a bank's login code.)
_AUTH_CODE = re.compile(r"auth\s+code", re.IGNORECASE)
_PAYMENT_NOTE = re.compile(
    r"\b(?:receipts?|terminal|payment|transaction|merchant|approved|approval|declined|ivr|arrears|refund|pos)\b"
    # a card charged: paid, the amount, the card's brand or last digits and expiry ("paid copay by card
    # over phone: VISA ending 1577 exp 09/27, auth code 018842, amount $40")
    r"|\b(?:paid|charged|amount|copay|deposit|sale|purchase|visa|mastercard|amex)\b|\bending\s+(?:in\s+)?\d{4}\b",
    re.IGNORECASE,
)


def _payment_authorisation(text: str, m: re.Match[str]) -> bool:
    return _AUTH_CODE.match(m.group()) is not None and _PAYMENT_NOTE.search(text) is not None


# The last digits of the phone a code was sent to or of the card a PIN is for, said as such
# ("sent to your phone ending 2281", "the card ending in 4471", "cartão final 4471", "nomor
# berakhiran 2281"): they say which phone or card; the code, if any, comes after them.
LAST_DIGITS = re.compile(
    r"(?<![\w])(?:ending|ends|last\s+(?:4|four)(?:\s+digits)?|terminad[oa]|terminando|final|se\s+terminant|finissant"
    r"|endung|endet|endend|eindigend|eindigt|slutar|ender|päättyvä|заканчивающ\w*|оканчивающ\w*|kończąc\w*|končící"
    r"|berakhiran|berakhir|đuôi|nagtatapos)(?:\s+(?:in|with|en|em|par|auf|mit|op|på|на|się\s+na|dengan|sa))?\s*:?\s*$",
    re.IGNORECASE,
)


# A chip's or a board's pins, named as the thing they are on ('"PIN 4471" in the datasheet is
# the connector pin number on the PCB').
BOARD = re.compile(
    r"\b(?:datasheet|pcb|pinout|connector|gpio|header\s+pin|breadboard|microcontroller|arduino)\b", re.IGNORECASE
)


# A word naming another kind of code right before "code for the house": the number is that
# code ("the zip code for the new house is 94103", "the area code for the office is 415").
OTHER_CODE = re.compile(
    r"(?<![\w])(?:zip|postal|post|area|country|dialling|dialing|promo|promotional|discount|coupon|voucher|referral"
    r"|error|status|exit|tracking|qr|bar|source|dress|colou?r|product|tax|sort|swift|bic|iata|airport|course"
    r"|class)\s+$",
    re.IGNORECASE,
)


# India's postal code is a "PIN code" of six digits: with an address around it, it is one.
_ADDRESS_CUE = re.compile(
    r"\b(?:road|rd|street|st|nagar|colony|sector|lane|marg|layout|city|district|dist|state|address|addr|post|p\.?o"
    r"|delivery|deliver|courier|shipping|ship|parcel|area|village|town|taluk|tehsil|india|bangalore|bengaluru"
    r"|mumbai|delhi|chennai|kolkata|hyderabad|pune|ahmedabad|jaipur|lucknow|noida|gurgaon|gurugram|thane|bandra"
    # the shops and couriers it is told to, and Hindi's "area" words ("amazon wale ko bol")
    r"|amazon|flipkart|swiggy|zomato|myntra|meesho|blinkit|zepto|bigbasket|dunzo|dtdc|bluedart|delhivery|ilaka"
    r"|mohalla|gali|chowk|locality)\b",
    re.IGNORECASE,
)


def postal_pin_code(text: str, value: str) -> bool:
    """Six digits with an address around them, or a town after a comma: India's postal PIN code."""
    digits = re.sub(r"\s", "", value)
    if len(digits) != 6 or digits[0] == "0":
        return False
    town = r"[A-Z][a-z]{2,}"
    pin = re.escape(value)
    # (Hindi's "is" may stand between: "pin code 110001 hai, Connaught Place")
    around = pin + r"(?:\s+(?i:hai|he|h))?\s*,\s*" + town + "|" + town + r"\s*,\s*(?i:pin\s*code|pincode)\s*:?\s*" + pin
    return (
        _ADDRESS_CUE.search(text) is not None
        or (not text.isascii() and _ADDRESS_IN_SCRIPT.search(text) is not None)
        or re.search(around, text) is not None
    )


# The same cues in Devanagari and Bengali (address, road, lane, colony, district, state, village,
# town, and the largest cities): a Hindi or Bengali address gives its PIN code among them.
_ADDRESS_IN_SCRIPT = re.compile(
    r"पता|रोड|मार्ग|गली|नगर|कॉलोनी|सेक्टर|जिला|ज़िला|राज्य|गांव|गाँव|शहर|डाक|मुंबई|दिल्ली|बेंगलुरु|बैंगलोर|कोलकाता"
    r"|चेन्नई|हैदराबाद|पुणे|जयपुर|लखनऊ|अहमदाबाद|नोएडा|गुड़गांव|ठिकाना|ঠিকানা|রোড|জেলা|গ্রাম|শহর|কলকাতা|ঢাকা"
)


def _postal_pin(text: str, m: re.Match[str]) -> bool:
    word = m.group().lower()
    return (word.startswith("pincode") or re.match(r"pin[\s\-]*code", word) is not None) and postal_pin_code(
        text, m.group("value")
    )


# What follows a key's size: its unit or its type ("host key 4096 RSA", "host key 2048 bit",
# "4096 (RSA)"): an SSH host key's size, not a meeting's host key (review rv5).
_KEY_SIZE = re.compile(r"[\s\-(]*(?:bits?|rsa|e?dsa|ed25519)\b", re.IGNORECASE)


def a_key_size_after(text: str, at: int) -> bool:
    return _KEY_SIZE.match(text, at) is not None


# "shipping to pin-code 600042": India's postal PIN code with an address or a courier around it
_PIN_DASH_CODE = re.compile(r"pin\s*-\s*code\s+(?P<value>\d{6})", re.IGNORECASE)


def pin_dash_postal(m: re.Match[str]) -> bool:
    pin = _PIN_DASH_CODE.fullmatch(m.group())
    return pin is not None and postal_pin_code(m.string, pin.group("value"))
