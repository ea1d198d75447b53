"""Numbers named as what they are and that open nothing: a status, error, weather, postal or
HS code, a pin of a circuit board. The product's policy (docs/security.md): a PIN or a code
that grants access is a secret, a number that grants nothing is not. Without this the
filter redacted an agent's trace ({"pin": 7} on a board, {"code": 1003} from a weather
API, {"status_code": 4821}) and refused ordinary text ("the area code ... is 415", "the
SIC code for our shop is 5719", "the LED goes on pin 13"): the learned stage reads a
number next to the word "code" or "pin" as the thing the word names.

Two uses:

- a keyed value: a plain number under a key that names a code that grants nothing
  (``status_code``, ``weather_code``, a bare ``code``) or a board's pin (``gpio_pin``,
  ``pin`` with one or two digits, ``A0``/``D13``/``GPIO17``) is no secret by its key, and
  the learned stage does not judge it (the rules still read the value itself: a card
  number under ``error_code`` is still a card);
- text: such a number, named in its clause ("zip code 94110", "pin 7"), is not shown to
  the learned stage as a value. The rules read the text as written.

A code named by what it opens ("door code", "alarm code", "security code", "verification
code"), a PIN with three digits or more, and any value under a key naming a lock or a
one-time code are untouched.
"""

from __future__ import annotations

import re

from engram.domain.sensitive.keys import CODE_KEY_WORDS, KEY_SPLIT, ONE_TIME_KEY_WORDS, key_rule
from engram.domain.sensitive.named_codes import postal_pin_code
from engram.domain.sensitive.prefilter import keyed
from engram.domain.sensitive.reading_view import reading_view

# What a code is named for when it opens nothing: a reply, an error, a place, a product, a
# trade classification, a language or a currency.
_QUALIFIERS = (
    "status",
    "error",
    "err",
    "exit",
    "return",
    "response",
    "result",
    "reason",
    "event",
    "close",
    "http",
    "condition",
    "weather",
    "fault",
    "dtc",
    "obd",
    "diagnostic",
    "area",
    "zip",
    "postal",
    "post",
    "postcode",
    "country",
    "dial",
    "dialing",
    "dialling",
    "iata",
    "icao",
    "airport",
    "station",
    "hs",
    "sic",
    "naics",
    "product",
    "item",
    "sku",
    "course",
    "class",
    "language",
    "lang",
    "locale",
    "currency",
    "color",
    "colour",
    "dress",
    "penal",
    "civil",
)
_CODE_QUALIFIERS = frozenset(_QUALIFIERS)
# "<qualifier> code" as a phrase (the dictated-code rule reads it as naming another number).
NAMED_CODE = r"(?:" + "|".join(_QUALIFIERS) + r")[\s\-]+codes?"
_CODE_WORDS = frozenset({"code", "codes"})
# A circuit board's pins, and the words that say a key is about one.
_PIN_WORDS = frozenset({"pin", "pins"})
_HARDWARE = frozenset(
    [
        *("gpio", "led", "leds", "pwm", "analog", "analogue", "digital", "sda", "scl", "servo", "relay", "sensor"),
        *("button", "mode", "pinout", "breadboard", "arduino", "esp32", "i2c", "spi", "uart", "rx", "tx"),
        *("board", "data", "header", "ground", "gnd", "vcc"),
    ]
)
_NUMBER_WORDS = frozenset({"number", "no", "num", "nr"})
_COMBINATION = frozenset({"combo", "combination", "kod", "koodi", "kode", "passcode", "pincode"})
# What a PIN or a code opens: a "pin" key naming one of these holds a PIN however it is written.
_LOCKED = CODE_KEY_WORDS | ONE_TIME_KEY_WORDS
_PLAIN_NUMBER = re.compile(r"[#+]?\d{1,8}")
# A pin as boards name it: a number of one or two digits, or A0, D13, GPIO17, GP2.
_BOARD_PIN = re.compile(r"(?:gpio|gp|[adp])?\d{1,2}", re.IGNORECASE)


def keyed_number_grants_nothing(text: str, key: str) -> bool:
    """Whether ``text`` under ``key`` is a number (or a word) its key names as opening nothing."""
    value = text.strip()
    words = frozenset(w.lower() for w in KEY_SPLIT.split(key) if w)
    if _describes_a_thing(value, words):
        return True
    if not value or len(value) > 9:
        return False
    if words & CODE_KEY_WORDS and words & _NUMBER_WORDS and not words & (_CODE_WORDS | _PIN_WORDS | _COMBINATION):
        return _PLAIN_NUMBER.fullmatch(value) is not None  # [locker_number], [gate_number]: which one, not its code
    if words & (CODE_KEY_WORDS | ONE_TIME_KEY_WORDS):
        return False  # a lock's or a one-time code ([door_code], [backup_code])
    if words & _CODE_WORDS and words - _CODE_WORDS <= _CODE_QUALIFIERS:
        return _PLAIN_NUMBER.fullmatch(value) is not None
    if words & _PIN_WORDS and words - _PIN_WORDS <= _HARDWARE | _NUMBER_WORDS:
        # a PIN has three digits or more; a board's pin is one or two, or a letter and a number
        return _BOARD_PIN.fullmatch(value) is not None or (
            bool(words & _HARDWARE) and _PLAIN_NUMBER.fullmatch(value) is not None
        )
    return False


def _describes_a_thing(value: str, words: frozenset[str]) -> bool:
    """A PIN is digits: words and no digit under a "pin" key describe a pin board or a badge
    ([pin_board] "cork board in the hall", [favourite_pin] "enamel cat pin")."""
    if not words & _PIN_WORDS or not words.isdisjoint(_LOCKED) or len(value.split()) < 2:
        return False
    if key_rule("_".join(sorted(words - _PIN_WORDS))) is not None:
        return False  # another word of the key names a secret ([pin_password])
    return not any(c.isdigit() for c in reading_view(value) or value)


# In text: "<qualifier> code", a few words of the same clause, then the number; or "pin(s)"
# and a number of one or two digits ("pin 7", "pins 12 and 13" reads its first). Found from
# the words "code" and "pin" (a scan for them is cheap; the phrases tried everywhere cost
# 3 ms on a 10,000-character message).
_ANCHOR = re.compile(r"[cCpP](?:[oO][dD][eE]|[iI][nN])")
_WORD_CHAR = re.compile(r"\w")
_QUALIFIER_BEFORE = re.compile(r"(?<![\w])(?:" + "|".join(_QUALIFIERS) + r")[\s\-]{1,3}$", re.IGNORECASE)
_CODE_NUMBER = re.compile(
    r"[sS]?(?![\w])[^\d.;,!?\n]{0,40}?(?P<number>[#+]?[A-Z]{0,3}\d[\d.\-]*\d|[#+]?\d)(?![\w])", re.IGNORECASE
)
_PIN_NUMBER = re.compile(
    r"[sS]?\s+(?:no\.?\s*|number\s+|#\s*)?(?:gpio|gp|[adp])?\d{1,2}(?![\w.,]\d)(?![\w])", re.IGNORECASE
)


# India's postal PIN code by its words ("delivery pin code 700091 not serviceable"): when
# named_codes.postal_pin_code says the rules read a postal code, its number goes too.
_POSTAL_PIN = keyed(r"(?<![\w])pin\s*-?\s*code\s*[:\-]?\s*(?P<number>[1-9]\d{2}\s?\d{3})(?![\w])", re.IGNORECASE)


def _without_postal_pins(text: str) -> str:
    def drop(m: re.Match[str]) -> str:
        number = m.group("number")
        return m.group()[: m.start("number") - m.start()] if postal_pin_code(text, number) else m.group()

    return _POSTAL_PIN.sub(drop, text)


def without_named_numbers(text: str) -> str:
    """The text with each number named as opening nothing taken out (what the learned stage
    reads): "the area code for the office is 415" reads "the area code for the office is",
    "connect pin 7 to ground" reads "connect  to ground" (a board's pin goes whole: the word
    alone reads as a PIN to the learned stage), "delivery pin code 700091" reads "delivery
    pin code " (India's postal PIN code, as the rules read it)."""
    text = _without_postal_pins(text)
    pieces: list[str] = []
    last = 0
    for anchor in _ANCHOR.finditer(text):
        start, end = anchor.span()
        if start < last or (start and _WORD_CHAR.match(text, start - 1)):
            continue
        if anchor.group()[0] in "pP":
            pin = _PIN_NUMBER.match(text, end)
            if pin is not None:
                pieces.append(text[last:start])
                last = pin.end()
            continue
        if _QUALIFIER_BEFORE.search(text, max(0, start - 16), start) is None:
            continue
        number = _CODE_NUMBER.match(text, end)
        if number is not None:
            pieces.append(text[last : number.start("number")].rstrip())
            last = number.end("number")
    return "".join(pieces) + text[last:] if pieces else text
