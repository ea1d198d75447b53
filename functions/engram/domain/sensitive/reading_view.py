"""A second reading of the text with numbers as people say, scan or break them written as
digits, so the number rules (and the learned stage) read one shape whatever the writing:

- digits spelled out or dictated, in the common languages ("four five eight seven",
  "vier, null, neun, zwei", "trois-huit-un-deux-neuf", "oh-nine twenty-seven",
  "nineteen eighty-eight"): a run of at least three digits' worth of number words (two
  words or more; a run of three words or more is read even when its words are ordinary
  words too, "four one one one ...");
- digits set apart one by one ("5 8 1 9", "4 0 2 1 - 0 0 1 2", "P R 88 90 69 B"), or one to
  a form's box ("|8|7|4|-|3|3|-|4|0|2|1|", "[4][5][3][2]...");
- OCR's letter-for-digit mix-ups inside a digit run ("4O2O 4111 4891 44l6");
- a digit group broken over two lines ("059-36-" / "3708", "4329 5700" / "4618 4972");
- a tab or line break written as its escape next to a digit ("17\\t4539...") as one;
- digits of other scripts ("٤٨٢٠") as ASCII digits, the only digits the rules' shapes name,
  and full-width Latin letters as ASCII letters ("ＰＩＮは４４７１" reads "PINは4471").

Separators between spelled groups stay: a dash between them is a dash ("two one nine - four
four - five oh six two" reads 219-44-5062), a comma a single space, so a group structure
the rules read ("4587 0780 7536 3746", "614 992") survives; an em dash ends the number.
The view is ``None`` when nothing changes, which is most text: the filter then reads the
text once. It is the filter's only second reading (an earlier second one, of the stretches
around each such number, was merged into it: same corpus results, one reading less).
"""

from __future__ import annotations

import operator
import re
import unicodedata

from engram.domain.sensitive.number_words import ALSO_A_WORD as _ALSO_A_WORD
from engram.domain.sensitive.number_words import DIGIT_WORDS as _DIGIT_WORDS
from engram.domain.sensitive.number_words import VIETNAMESE, words_of

# English teens and tens ("forty-three sixty-six", "nineteen eighty-eight").
_TEENS = dict(
    zip(
        ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"],
        (str(n) for n in range(10, 20)),
        strict=True,
    )
)
_TENS = dict(
    zip(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], "23456789", strict=True)
)
_REPEAT = {"double": 2, "triple": 3}
_SPOKEN_DASH = frozenset({"dash", "hyphen"})
_NUMBER_WORD = frozenset([*_DIGIT_WORDS, *_TEENS, *_TENS, *_REPEAT])
# A digit of another script ("٤٨٢٠"): the rules' shapes are written in ASCII digits.
_OTHER_DIGIT = re.compile(r"(?![0-9])\d")
# Full-width Latin letters, as Chinese, Japanese and Korean input writes them ("ＰＩＮ").
_FULL_WIDTH_LETTER = re.compile(r"[\uff21-\uff3a\uff41-\uff5a]")
_FULL_WIDTH_TO_ASCII = {c: c - 0xFEE0 for c in (*range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B))}
# Chinese digits said one by one, written without a break ("验证码是六六九二零四"): four or
# more, not a number written in words ("一千二百", "二〇二四年", "第一二三章").
_CHINESE_DIGITS = re.compile(
    r"(?<![〇零一二三四五六七八九十百千万萬亿億第])[〇零一二三四五六七八九幺]{4,12}"
    r"(?![〇零一二三四五六七八九十百千万萬亿億年月日号號点點个個位次岁歲元块塊分秒时時])"
)
_CHINESE_TO_ASCII = str.maketrans("〇零一二三四五六七八九幺", "001234567891")
# What may stand between two number words of one run; a comma, a semicolon or a dash set
# between spaces ends a group, a space or a hyphen does not.
_GAP = re.compile(r"[ \t]*(?:[,;、，،፣؛]|\s[\-–]\s|\.\.\.?|…)?[ \t]*|-|・")
_GROUP_BREAK = re.compile(r"[,;–—…、，،፣؛]|\.\.|\s-\s")
_DASH_BREAK = re.compile(r"^\s*[\-–]\s*$")

# Single digits (and capital letters) set apart by single spaces or dashes: three or more.
# (a form's boxes set apart by bars are groups too: "6 0 3 | 1 9 | 4 4 8 2" on a scanned W-9)
_SPACED = re.compile(r"(?<![\w.,])(?:[A-Z] )*\d(?:(?: | ?- ?| \| )[\dA-Z](?![\w]))+(?![\w])")
_SPACED_PIECE = re.compile(r"\s*-\s*|\s\|\s|\s")
# Spelled capitals before digits ("D E, 74 4036", "P R 88 90 69 B"): one prefix.
_SPACED_CAPITALS = re.compile(r"(?<![\w])([A-Z]) ([A-Z])(,? )(?=\d)")
# OCR mix-ups: a run of digits and the letters read for them (O, o for 0; l, I, | for 1).
# (and in a dashed number's groups: "538-2l-7740", an SSN read from a photo)
_OCR_RUN = re.compile(r"(?<![\w])[0-9OolI|]{4,}(?![\w])|(?<![\w\-])[0-9OolI|]{1,4}(?:-[0-9OolI|]{2,5}){1,3}(?![\w\-])")
# What each of those needs: an OCR'd run changes only with two digits in it, a spaced number
# starts with a digit and a space or a dash, spelled capitals are two capitals and a space.
_TWO_DIGITS_IN_A_RUN = re.compile(r"\d[0-9OolI|]*\d")
_DIGIT_THEN_GROUP = re.compile(r"\d(?: | ?- ?| \| )[\dA-Z]")
_TWO_CAPITALS = re.compile(r"[A-Z] [A-Z]")
_OCR_MAP = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1", "|": "1"})
# A digit group at the end of a line and the next line starting with digits (not with a
# numbered item or a form's box label: "3. Food", "1 Wages", "12a D").
_BROKEN_LINE = re.compile(r"(?<=\d)(-?)[ \t]*\r?\n[ \t]*(?=\d)(?!\d{1,2}[a-z]?[.)]?[ \t]+[^\d\s])")

# A clock time said after its preposition ("set the alarm for six forty-five", "the gate
# opens at 7 3 0") stays words: it says when something rings or opens, not a code.
_TIME_BEFORE = re.compile(
    r"(?<![\w])(?:at|for|until|till|by|from|before|after|um|ab|bis|gegen|à|vers|a\s+las|alle|om|kl\.?|klockan)\s*$",
    re.IGNORECASE,
)


# A tab or line break written as its escape in a dump or an escaped log line
# ("COPY ... FROM stdin;\n9\tAmal Idris\t572918364"): its letter would stick to the number.
_ESCAPE_BY_A_DIGIT = re.compile(r"(?<=\d)\\[tnr]|\\[tnr](?=\d)")
_ESCAPES = {"\\t": "\t", "\\n": "\n", "\\r": ""}


# A form's boxes, one digit (or dash) in each, as OCR or a copy gives them ("|8|7|4|-|3|3|-|4|0|2|1|",
# "[4][5][3][2]..."): six boxes or more read as one number.
_BOXED = re.compile(r"(?:\|[\d\-]){6,}\||(?:\[[\d\-]\]){6,}")


def reading_view(text: str) -> str | None:
    """The text with spelled, spaced, OCR'd and broken numbers written as digit groups, or
    ``None`` when it reads the same."""
    out = text
    if "\\" in out and _ESCAPE_BY_A_DIGIT.search(out):
        for escape, char in _ESCAPES.items():
            out = out.replace(escape, char)
    if not out.isascii():
        out = _script_digits(out)
    if _two_number_words_in_a_row(out):
        out = _spelled_to_digits(out)
    if _has_digit_candidates(out):
        out = _mixed_to_digits(out)
    if ("|" in out or "][" in out) and _BOXED.search(out):
        out = _BOXED.sub(lambda m: re.sub(r"[|\[\]]", "", m.group()), out)
    if _has_digit_candidates(out):
        # each pattern is tried only where what it needs is there (a cheap search for it;
        # the patterns start with a look-behind tried at every position of a long text)
        if _TWO_DIGITS_IN_A_RUN.search(out):
            out = _OCR_RUN.sub(_ocr_fix, out)
        if _DIGIT_THEN_GROUP.search(out):
            out = _SPACED.sub(_join_spaced, out)
        if "\n" in out:
            out = _BROKEN_LINE.sub(lambda m: m.group(1) or " ", out)
        if _TWO_CAPITALS.search(out):
            out = _SPACED_CAPITALS.sub(lambda m: m.group(1) + m.group(2) + ("" if "," in m.group(3) else " "), out)
    return None if out == text else out


# A code said digit by digit with some digits typed and some said ("pin 0 four 1 six", "code
# 4 nine 2 2", as a voice note or a phone's dictation writes it): looked for from each lone digit
# (a text's lone digits are few), the tokens around it each a lone digit or a digit's word.
_LONE_DIGIT = re.compile(
    r"(?<![\w.,:/\-])\d(?![\w.,:/\-]|[ ,\-]+\d{2})"
    r"(?=(?:[ ,\-]+\d)?[ ,\-]+(?![\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])[^\W\d_])"
)
_MIXED_TOKEN = re.compile(r"[ ,\-]+([^\W_]+)")
_MIXED_MIN = 4


def _mixed_to_digits(text: str) -> str:
    out, at, read = [], 0, 0
    for m in _LONE_DIGIT.finditer(text):
        if m.start() < read:
            continue  # (inside a run already read: each digit of "1 2 3 4 ..." read once)
        tokens = [(m.start(), m.end(), m.group())]
        while len(tokens) < 8 and (t := _MIXED_TOKEN.match(text, tokens[-1][1])) is not None:
            word = t.group(1).lower()
            if not ((len(word) == 1 and word.isdigit()) or word in _DIGIT_WORDS):
                break
            tokens.append((t.start(1), t.end(1), word))
        read = tokens[-1][1]
        said = [w for _, _, w in tokens if not w.isdigit()]
        if len(tokens) < _MIXED_MIN or not said or (len(said) == len(tokens) - 1 and len(tokens) < 5):
            continue
        for start, end, word in tokens:
            out.append(text[at:start] + (word if word.isdigit() else _DIGIT_WORDS[word]))
            at = end
    return "".join(out) + text[at:] if out else text


def _script_digits(out: str) -> str:
    """Other scripts' digits, full-width letters and Chinese digits said one by one, in ASCII."""
    if _OTHER_DIGIT.search(out):
        out = _OTHER_DIGIT.sub(lambda m: str(unicodedata.decimal(m.group(), 0)), out)
    if _FULL_WIDTH_LETTER.search(out):
        out = out.translate(_FULL_WIDTH_TO_ASCII)  # "ＰＩＮは４４７１": the word the rules name is PIN
    if _CHINESE_DIGITS.search(out):
        out = _CHINESE_DIGITS.sub(lambda m: m.group().translate(_CHINESE_TO_ASCII), out)
    return out


def _has_digit_candidates(text: str) -> bool:
    return any(c.isdigit() for c in text)


def _two_number_words_in_a_row(text: str) -> bool:
    # cheap gate (one C-level scan and a set lookup per word): most text holds no run
    flags = list(map(_NUMBER_WORD.__contains__, words_of(text).findall(text.lower())))
    return any(map(operator.and_, flags, flags[1:]))


def _spelled_to_digits(text: str) -> str:
    pieces: list[str] = []
    last = 0
    for start, end, groups in _spelled_runs(text):
        pieces.append(text[last:start])
        pieces.append(_joined(groups))
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def _digits(groups: list[str]) -> str:
    return "".join(groups).replace("-", "")


def _joined(groups: list[str]) -> str:
    """The digit groups as written: a group set apart by a dash keeps it ("two one nine - four
    four - five oh six two" is 219-44-5062), others a space."""
    out = ""
    for g in groups:
        digits = g.lstrip("-")
        if digits:
            out += (("-" if g.startswith("-") else " ") if out else "") + digits
    return out


def _spelled_runs(text: str) -> list[tuple[int, int, list[str]]]:
    """Each run of number words read as digits: its span and its digit groups."""
    words = list(words_of(text).finditer(text))
    runs: list[tuple[int, int, list[str]]] = []
    i = 0
    while i < len(words):
        if _copula_before_a_number(words, i):
            i += 1  # ("OTP hai chhe chhe ek do": Hindi's "is", not Vietnamese's "two")
            continue
        j, groups = _run_from(text, words, i)
        # A run mostly of words that are ordinary words too ("one", "sei") is read from the
        # first word after which it no longer is: once, since reading it again from each of
        # its words made a long run quadratic (10,000 characters of "one one ..." took 16 s).
        k = _first_number_start(words, i, j)
        if j - i >= 3:
            k = i  # three number words in a row are a number, ordinary words or not ("four one one one")
        elif k is not None and k > i:
            j, groups = _run_from(text, words, k)
        if k is not None and j > k + 1 and len(_digits(groups)) >= 3:
            start = words[k].start()
            if not _clock_time(text, start, _digits(groups)):
                runs.append((start, words[j - 1].end(), groups))
        i = max(j, i + 1)
    return runs


def _copula_before_a_number(words: list[re.Match[str]], i: int) -> bool:
    return words[i].group().lower() == "hai" and i + 1 < len(words) and words[i + 1].group().lower() not in VIETNAMESE


def _first_number_start(words: list[re.Match[str]], i: int, j: int) -> int | None:
    """The first word of ``words[i:j]`` from which the rest of the run is two words or more,
    less than half of them ordinary words too."""
    also = 0
    first = None
    for k in range(j - 1, i - 1, -1):
        also += words[k].group().lower() in _ALSO_A_WORD
        if j - k >= 2 and 2 * also < j - k:
            first = k
    return first


def dictated_runs(text: str) -> list[tuple[int, int, int]]:
    """Numbers given digit by digit in ``text``, spelled out or spaced ("vier, null, neun,
    zwei", "7 7 1 2"): each one's span and its number of digits. Someone reading a number
    out this way is most often passing on a code."""
    out: list[tuple[int, int, int]] = []
    if _two_number_words_in_a_row(text):
        out.extend((a, b, len(_digits(groups))) for a, b, groups in _spelled_runs(text))
    for m in _SPACED.finditer(text):
        digits = sum(c.isdigit() for c in m.group())
        if digits >= 3 and not any(c.isalpha() for c in m.group()) and not _clock_time(text, m.start(), m.group()):
            out.append((m.start(), m.end(), digits))
    return out


def _clock_time(text: str, start: int, said: str) -> bool:
    """Whether the number said at ``start`` is a time of day given after its preposition."""
    number = "".join(c for c in said if c.isdigit())
    if len(number) not in (3, 4) or int(number[:-2]) > 24 or int(number[-2:]) >= 60:
        return False
    return _TIME_BEFORE.search(text, max(0, start - 12), start) is not None


def _run_from(text: str, words: list[re.Match[str]], i: int) -> tuple[int, list[str]]:
    """The end of the run of number words starting at ``words[i]`` and its digit groups."""
    groups = [""]
    j = i
    pending_repeat = 1
    while j < len(words):
        w = words[j].group().lower()
        if w in _SPOKEN_DASH and j > i and j + 1 < len(words) and words[j + 1].group().lower() in _NUMBER_WORD:
            groups.append("-")  # a dash said as a word ("five one two dash four four dash ..."): a group's end
            j += 1
            continue
        if w not in _NUMBER_WORD:
            break
        if j > i:
            gap = text[words[j - 1].end() : words[j].start()]
            if not _GAP.fullmatch(gap):
                break
            if _GROUP_BREAK.search(gap) and groups[-1].lstrip("-"):
                groups.append("-" if _DASH_BREAK.search(gap) else "")
        if w in _REPEAT:
            pending_repeat = _REPEAT[w]
            j += 1
            continue
        if w in _TENS:
            # "forty-three" is 43, "twenty" alone 20
            nxt = words[j + 1].group().lower() if j + 1 < len(words) else ""
            gap = text[words[j].end() : words[j + 1].start()] if j + 1 < len(words) else ""
            if nxt in _DIGIT_WORDS and _DIGIT_WORDS[nxt] != "0" and gap in ("-", " "):
                groups[-1] += _TENS[w] + _DIGIT_WORDS[nxt]
                j += 2
                continue
            groups[-1] += _TENS[w] + "0"
        elif w in _TEENS:
            groups[-1] += _TEENS[w]
        else:
            groups[-1] += _DIGIT_WORDS[w] * pending_repeat
        pending_repeat = 1
        j += 1
    return j, groups


def _ocr_fix(m: re.Match[str]) -> str:
    run = m.group()
    digits = sum(c.isdigit() for c in run)
    if digits < 2 or digits * 2 < len(run):
        return run
    return run.translate(_OCR_MAP)


def _join_spaced(m: re.Match[str]) -> str:
    run = m.group()
    pieces = _SPACED_PIECE.split(run)
    if sum(p.isdigit() for p in pieces) < 3:
        return run
    # a dash between spaced digits marks a group ("4 0 2 1 - 0 0 1 2"); spaces do not
    return re.sub(r" ?- ?| \| ", "-", run).replace(" ", "")
