"""An id's word and a number of that id's own printed form in the same sentence, whatever
stands between them.

The id rules read a value right after its word, or a few words on before "is" or ":" (48
characters). People put more between: whose it is, what it is for, where it was seen ("the
Aadhaar for the Pune contractor was in the email signature by mistake: 4918 7320 5612",
"kod meli of my brother for the visa letter: 1273849507"), or the number first ("4918 7320
5612 is her Aadhaar"). Where the id has a printed form of its own that ordinary numbers seldom
take (Aadhaar's twelve digits in three groups of four, never starting with 0 or 1; India's
PAN of a person, five letters with P fourth, four digits, a letter; Brazil's CPF with its dots
and dash; China's eighteen-character resident id and Korea's resident registration number with
their birth dates; Iran's ten-digit national code beside its own name), the word and the form in one
sentence say what the number is, as far apart as they stand. A number labelled as another
thing's right before it (an order's, a phone's) is that thing's; one of a template's filler
digits ("000.000.000-00") is nobody's."""

from __future__ import annotations

import re

from engram.domain.sensitive.categories import labelled_as_another_institutions
from engram.domain.sensitive.id_documents import another_things_number
from engram.domain.sensitive.national_id_checks import iran_id_valid

# Iran's national code: ten digits, the last a check digit (national_id_checks.iran_id_valid).
_IRAN_FORM = re.compile(r"(?<![\d\-/.])\d{3}-?\d{6}-?\d(?![\d\-/]|\.\d)")
# (what the text must hold for the words to be looked for, the id's words, its printed form)
_FORMS: tuple[tuple[tuple[str, ...], re.Pattern[str], re.Pattern[str]], ...] = (
    (
        ("aadha", "uidai", "आधार", "ஆதார்", "ఆధార్", "ಆಧಾರ್", "আধার", "آدھار", "ആധാർ", "આધાર", "ਆਧਾਰ"),
        re.compile(r"\baadhaa?r\b|\buidai\b|आधार|ஆதார்|ఆధార్|ಆಧಾರ್|আধার|آدھار|ആധാർ|આધાર|ਆਧਾਰ", re.IGNORECASE),
        re.compile(r"(?<![\d\-/.])[2-9]\d{3}([ \-])\d{4}\1\d{4}(?![\d\-/]|\.\d)"),
    ),
    (
        ("pan", "पैन"),
        re.compile(r"\bPAN\b|पैन"),
        re.compile(r"(?<![A-Za-z0-9])[A-Z]{3}P[A-Z]\d{4}[A-Z](?![A-Za-z0-9])"),
    ),
    (
        ("cpf",),
        re.compile(r"\bcpf\b", re.IGNORECASE),
        re.compile(r"(?<![\d.\-])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d.\-])"),
    ),
    (
        # China's resident identity number (region, birth date, serial, check character) and
        # Korea's resident registration number (birth date, then a sex digit and six more),
        # the number often written before the word ("510107 19781209 1633 这是我爸的身份证号")
        ("身份", "身分"),
        re.compile(r"身[份分][证證]|身[份分][證证]字[號号]"),
        re.compile(r"(?<![\d\-])\d{6}\s?(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\s?\d{3}[\dXx](?![\d\-])"),
    ),
    (
        ("주민",),
        re.compile(r"주민\s*(?:등록)?\s*번호"),
        re.compile(r"(?<![\d\-])\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-?[1-8]\d{6}(?![\d\-])"),
    ),
    (
        # Iran's national code (کد ملی) as Latin letters write it: "kod meli", "code melli"
        ("mel", "ملی"),
        re.compile(r"\b(?:k[oa]de?|code)\s+mell?i\b|\bmell?i\s+code\b|کد\s*ملی|شماره\s*ملی", re.IGNORECASE),
        _IRAN_FORM,
    ),
)
# A sentence's end: a full stop, "!" or "?" before white space, or a line break.
_SENTENCE_END = re.compile(r"[.!?。！？](?=\s)|\n")
_AFTER, _BEFORE = 120, 60


def id_form_in_its_sentence(text: str) -> bool:
    """Whether an id's word and a number of its printed form stand in one sentence (above)."""
    lowered = text.lower()
    for needed, words, form in _FORMS:
        if not any(n in lowered for n in needed):
            continue  # (looked for as plain text first: most text holds none of these words)
        for word in words.finditer(text):
            start, end = max(0, word.start() - _BEFORE), min(len(text), word.end() + _AFTER)
            for m in form.finditer(text, start, end):
                a, b = (word.end(), m.start()) if m.start() >= word.end() else (m.end(), word.start())
                if _SENTENCE_END.search(text, a, b) or labelled_as_another_institutions(text, m.start()):
                    continue
                # (what names another thing's number is looked for after the id's own word:
                # "code melli baba 1273948505" is no code's)
                since = word.end() if m.start() >= word.end() else 0
                if (
                    len(set(re.sub(r"\W", "", m.group()))) > 2
                    and not another_things_number(text, m.start(), since)
                    and (form is not _IRAN_FORM or iran_id_valid(re.sub(r"\D", "", m.group())))
                ):
                    return True  # (Iran's code has a check digit: one that fails it is no code, 21e)
    return False
