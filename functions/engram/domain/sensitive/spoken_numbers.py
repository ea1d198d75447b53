"""Numbers as people dictate or type them digit by digit: "four eight two one", "cinco cinco
cero cuatro", "fifty eight", "7 2 0 4", "٤٨٢٠". The rules read digits, so the filter
reads such a text a second time with these written as digits ("4821", "5504", "58",
"7204", "4820"). Groups a speaker separates with commas stay apart as groups of digits
("five four two five, one two three seven" is "5425 1237"), as a card or an account is
read out in groups.
"""

from __future__ import annotations

import re
import unicodedata

_DIGIT_WORDS = {
    # English, Spanish, Portuguese, Italian, French, German
    **dict.fromkeys(("zero", "oh", "cero", "zéro", "null", "zero"), "0"),
    **dict.fromkeys(("one", "uno", "um", "une", "eins"), "1"),
    **dict.fromkeys(("two", "dos", "dois", "due", "deux", "zwei"), "2"),
    **dict.fromkeys(("three", "tres", "três", "tre", "trois", "drei"), "3"),
    **dict.fromkeys(("four", "cuatro", "quatro", "quattro", "quatre", "vier"), "4"),
    **dict.fromkeys(("five", "cinco", "cinque", "cinq", "fünf", "funf"), "5"),
    **dict.fromkeys(("six", "seis", "sei", "sechs"), "6"),
    **dict.fromkeys(("seven", "siete", "sete", "sette", "sept", "sieben"), "7"),
    **dict.fromkeys(("eight", "ocho", "oito", "otto", "huit", "acht"), "8"),
    **dict.fromkeys(("nine", "nueve", "nove", "neuf", "neun"), "9"),
}
_TENS = {"twenty": "2", "thirty": "3", "forty": "4", "fifty": "5", "sixty": "6", "seventy": "7", "eighty": "8"}
_TENS |= {"ninety": "9"}
_TEENS = {"ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14", "fifteen": "15"}
_TEENS |= {"sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19"}
_WORD = r"(?:" + "|".join(sorted({*_DIGIT_WORDS, *_TENS, *_TEENS, "double"}, key=len, reverse=True)) + r")"
# Three or more number words in a row, with spaces, hyphens or commas between them.
_SPOKEN_RUN = re.compile(r"(?<![\w])" + _WORD + r"(?:(?:\s*,\s*|[\s\-]+)" + _WORD + r"){2,}(?![\w])", re.IGNORECASE)
# Four or more single digits set one space apart ("7 2 0 4", "1 9 4 5").
_SPACED_DIGITS = re.compile(r"(?<![\w.,:/\-])\d(?: \d){3,}(?![\w/\-]|\s\d|[.,]\d)")
_NON_ASCII_DIGIT = re.compile(r"(?![0-9])\d")
_NUMBER_WORDS = frozenset({*_DIGIT_WORDS, *_TENS, *_TEENS})
_LETTERS = re.compile(r"[^\W\d_]+")


def _spoken(run: str) -> str:
    groups = re.split(r"\s*,\s*", run.lower())
    out = []
    for group in groups:
        digits = []
        words = re.split(r"[\s\-]+", group)
        i = 0
        while i < len(words):
            w = words[i]
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if w == "double" and nxt in _DIGIT_WORDS:
                digits.append(_DIGIT_WORDS[nxt] * 2)
                i += 2
                continue
            if w in _TENS:
                if nxt in _DIGIT_WORDS and _DIGIT_WORDS[nxt] != "0":
                    digits.append(_TENS[w] + _DIGIT_WORDS[nxt])
                    i += 2
                    continue
                digits.append(_TENS[w] + "0")
            elif w in _TEENS:
                digits.append(_TEENS[w])
            elif w in _DIGIT_WORDS:
                digits.append(_DIGIT_WORDS[w])
            i += 1
        out.append("".join(digits))
    return " ".join(g for g in out if g)


def _ascii_digits(text: str) -> str:
    return _NON_ASCII_DIGIT.sub(lambda m: str(unicodedata.decimal(m.group(), 0)), text)


_AROUND = 200


def _three_number_words(text: str) -> bool:
    """Three number words in a row somewhere (what _SPOKEN_RUN needs), checked word by word."""
    run = 0
    for w in _LETTERS.findall(text.lower()):
        run = run + 1 if w in _NUMBER_WORDS else 0
        if run >= 3:
            return True
    return False


def digit_readings(text: str) -> list[str]:
    """The stretches of the text around each spoken number, digits set apart or other
    scripts' digits, written as ASCII digits (the rules read those stretches again);
    none when the text holds no such number."""
    changed = False
    if not text.isascii() and _NON_ASCII_DIGIT.search(text):
        ascii_text = _ascii_digits(text)
        changed = ascii_text != text
        text = ascii_text
    matches: list[re.Match[str]] = []
    if _three_number_words(text):
        matches += _SPOKEN_RUN.finditer(text)
    if " " in text:
        matches += _SPACED_DIGITS.finditer(text)
    if not matches:
        return [text] if changed else []
    if len(text) <= 2 * _AROUND:
        return [_rewrite(text, matches)]
    out = []
    for m in matches:
        start, end = max(0, m.start() - _AROUND), min(len(text), m.end() + _AROUND)
        inside = [n for n in matches if n.start() >= start and n.end() <= end]
        out.append(_rewrite(text, inside, start, end))
    return out


def _rewrite(text: str, matches: list[re.Match[str]], start: int = 0, end: int | None = None) -> str:
    end = len(text) if end is None else end
    parts, at = [], start
    for m in sorted(matches, key=lambda n: n.start()):
        if m.start() < at:
            continue
        digits = _spoken(m.group()) if m.re is _SPOKEN_RUN else m.group().replace(" ", "")
        parts += [text[at : m.start()], digits]
        at = m.end()
    parts.append(text[at:end])
    return "".join(parts)
