"""What a kept text (a conversation message, a trace) loses when the filter flags it: the
narrowest run of words the filter flags, widened to the phrase it is part of, not the whole
clause around it. "the wifi password is violet-Sunshine42 and the dog is Rex" is kept as
"the wifi password is [redacted] and the dog is Rex"; a 33,000-character log with one
``password=...`` keeps every other field.

The rules and the learned stage say whether a text holds a secret, not where: each rule is
a check over the whole text (a keyword and a value after it, a number and the word naming
it three words back). So the run is found by asking the filter again on shorter runs of
words: a long text is scanned in overlapping windows, then the first window flagged is
narrowed from the right and from the left while it stays flagged. The run is then widened
to whole phrases (a phrase starts at a joining word, "and", "for", "is", ..., or at a
``key=value`` field), because a rule's run can stop inside the secret: "password is hunter"
is flagged and "two" is still the secret. Within those phrases only a value-shaped tail
named by "is", ":" or its own key goes (a value with no shape, or words after the value,
may be a passphrase: the phrases go whole). What is left is checked again, and a piece
that keeps being flagged goes whole.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator

from engram.domain.sensitive.categories import REDACTED, SensitiveMatch
from engram.domain.sensitive.filter import find_by_rules, find_sensitive
from engram.domain.sensitive.learned_model import tokens as model_tokens
from engram.domain.sensitive.remembered import remembered

__all__ = [
    "REDACTED",
    "flagged_span",
    "redact_piece",
    "replaced_whole",
    "without_listed_values",
    "without_named_values",
    "without_repeats",
]

_WORDS = re.compile(r"\S+")
# A window holds a rule's keyword and its value with room to spare (the learned stage reads 24
# tokens; a rule looks a few words back), and overlaps the next by half so no pair is cut.
_SCAN_WORDS = 48
_SCAN_STEP = 24
# How many words either side of a run naming a value its value is looked for (the learned
# stage reads six before a value and five after).
_REACH = 6
# A value lost to redaction and written again is looked for only when it has this many letters
# and digits (a "42" again is anything).
_REPEAT_MIN = 4
# A list under a name: how many lines after the one that lost a value, of how many words.
_LIST_LINES = 8
_LIST_WORDS = 6
# How many runs one piece may lose before it goes whole (each costs a few filter runs).
_RUNS_MAX = 8
# The learned stage splits "key=value" and "key:value" at the first mark after a letter.
_KEY_SPLIT = re.compile(r"(?<=[^\W\d_])([:=])(?=\S)")
# A field's key: a name, not a value ("AWS_SECRET_ACCESS_KEY", "db.password", "api-key2").
_KEY = re.compile(r"[\"'(\[{]?[^\W\d_][\w.\-]*[\"']?")
_EDGE = "\"'“”‘’`()[]{}<>«»„,.;:!?…"
# Words that start a phrase: what joins two statements or names a place, a time, a purpose.
_JOINING = frozenset(
    [
        *("and", "but", "or", "nor", "so", "then", "because", "since", "while", "when", "where", "which"),
        *("who", "whose", "if", "unless", "although", "though", "after", "before", "until", "till", "once"),
        *("for", "to", "at", "on", "in", "into", "of", "from", "with", "without", "by", "about", "via", "per"),
        *("is", "are", "was", "were", "be", "been", "am", "equals", "plus", "also", "please", "thanks"),
        *("und", "aber", "oder", "et", "mais", "ou", "y", "pero", "e", "ma", "en", "maar", "och", "og"),
    ]
)
# What names the value right after it: "is violet-Sunshine42", "password: X7", "= X7".
_NAMING = frozenset(
    ["is", "are", "was", "were", "be", "equals", "=", ":", "-", "–", "—", "→", "->", "ist", "est", "es"]
)


# Digits grouped by spaces, dashes or dots ("4111 1111 ...", "123.45.6789") and the word they
# stand in ("A123456789Z", "PL61109010140000071219812874": "A[redacted]Z" kept the id's
# letters). The word is widened in code: a pattern that looked back over the word for its
# number tried the whole word again from each of its letters (20 s for 24,000 of them).
_GROUPED_NUMBER = re.compile(r"\d[\d \-.]{5,}\d")
_WORD_CHAR = re.compile(r"[^\W_]")
_WORD_REST = re.compile(r"[^\W_]*")


def words_with_numbers(text: str) -> Iterator[tuple[int, int, str]]:
    """Each word holding a grouped number, left to right: its start, its end and its first
    number (a token's later digits are a token's, not a number of their own)."""
    pos = 0
    while (number := _GROUPED_NUMBER.search(text, pos)) is not None:
        start = number.start()
        while start > pos and _WORD_CHAR.match(text, start - 1):
            start -= 1
        rest = _WORD_REST.match(text, number.end())
        end = number.end() if rest is None else rest.end()
        yield start, end, number.group()
        pos = end


def redact_piece(piece: str, *, flagged: bool = False) -> str:
    """``piece`` with every run the filter flags redacted, one at a time, then the values of
    the same shape as one it lost ("pin for the visa is 2255 and for the mastercard 7410":
    one name, two values). Past ``_RUNS_MAX`` runs (a long log the learned stage reads as one
    dump) every value-shaped word goes and the keys and plain words stay; the whole piece
    (its edges kept) if that is still flagged. ``flagged``: the caller found the piece
    flagged already (the first run is looked for without asking the whole piece again)."""
    out, scanned, known = piece, 0, flagged
    # What a rule finds is looked for first: the learned stage may flag a few words that name
    # a value ("the pin for the bank app") where a rule reads the value with them.
    flags = _by_rules if _rules(piece) is not None else _flagged
    for _ in range(_RUNS_MAX):
        found = flagged_span(out, flags, scanned, known=known)
        known = False
        if found is None and flags is _by_rules:
            flags, scanned = _flagged, 0
            found = flagged_span(out, flags, scanned)
        if found is None:
            return _same_shapes_removed(piece, out)
        run = _with_values_near(out, found)
        start, end = _phrases_around(out, *run)
        out = out[:start] + _narrowest_cut(out, run, (start, end)) + out[end:]
        scanned = start  # what comes before was scanned and found clean
    if _sensitive(out) is None:
        return _same_shapes_removed(piece, out)
    left = _WORDS.sub(_chunk_without_values, out)
    return left if _sensitive(left) is None else replaced_whole(piece)


def _same_shapes_removed(piece: str, redacted: str) -> str:
    shapes = {_shape(w) for w in _gone_values(piece, redacted)} - {None}
    return _WORDS.sub(_shaped_as(shapes), redacted) if shapes else redacted


def _shape(word: str) -> str | None:
    values = [t for t in model_tokens(word) if t.value]
    return values[0].norm if len(values) == 1 else None


def _gone_values(original: str, redacted: str) -> set[str]:
    before = Counter(_WORDS.findall(original))
    after = Counter(_WORDS.findall(redacted))
    return {w for w, n in before.items() if n > after[w] and REDACTED not in w and _has_value(w)}


def without_listed_values(originals: list[str], redacted: list[str]) -> None:
    """The short lines after a sentence that lost a value lose the values of its shape:
    "codes for the new house:\nfront door 4471\nback gate 2290\nalarm 8181 (off)" is read
    as a list by the rules, and "alarm 8181 (off)" is not flagged once the lines before it
    lost their codes. In place; ``redacted`` is ``originals`` sentence by sentence."""
    if len(originals) != len(redacted):
        return
    for i, (before, after) in enumerate(zip(originals, redacted, strict=True)):
        shapes = {_shape(w) for w in _gone_values(before, after)} - {None}
        for j in range(i + 1, min(len(redacted), i + 1 + _LIST_LINES)) if shapes else ():
            if len(redacted[j].split()) <= _LIST_WORDS:
                redacted[j] = _WORDS.sub(_shaped_as(shapes), redacted[j])


def _shaped_as(shapes: set[str | None]) -> Callable[[re.Match[str]], str]:
    def scrub(m: re.Match[str]) -> str:
        word = m.group()
        if REDACTED in word or _KEY_SPLIT.search(word) or _shape(word) not in shapes:
            return word  # a field's value is its key's, not the name's before it
        return _edges_kept(word)

    return scrub


def without_named_values(original: str, redacted: str, *, known_clean: bool = False) -> str:
    """``redacted`` without the values whose name it lost in another sentence: "2FA recovery
    codes (GitHub) - keep safe!" flagged alone and went, and the codes on the next lines,
    which nothing names any more, stayed. The original with only the values that went
    masked is asked again; a value kept in a run it flags goes, until none does.
    ``known_clean``: the caller found ``redacted`` clean (asked once when the two are one)."""
    for _ in range(_RUNS_MAX):
        gone = _gone_values(original, redacted)
        named = _WORDS.sub(_masked(gone), original)
        if known_clean and named == redacted:
            return redacted
        found = flagged_span(named, _flagged)
        if found is None:
            return redacted
        kept = set(_WORDS.findall(redacted))
        values = {w for w in _WORDS.findall(named[found[0] : found[1]]) if w in kept and _has_value(w)}
        values -= {w for w in values if REDACTED in w}
        if not values:
            return redacted
        # and the kept values of their shape: a list under one name ("recovery codes:" and
        # ten codes) is no longer flagged once its first value went
        redacted = _same_shapes_removed(redacted, _WORDS.sub(_masked(values), redacted))
    return redacted


def _masked(values: set[str]) -> Callable[[re.Match[str]], str]:
    return lambda m: _edges_kept(m.group()) if m.group() in values else m.group()


def _narrowest_cut(text: str, run: tuple[int, int], phrases: tuple[int, int]) -> str:
    """What the phrases around ``run`` become: the value after the word naming it goes, or
    every field's value in a run of ``key=value`` fields, or the phrases whole; the first of
    these that leaves nothing the filter flags."""
    whole = text[phrases[0] : phrases[1]]
    for cut in (_cut_after_name(text, run, phrases), _field_values_cut(whole)):
        if cut is not None and _sensitive(cut) is None:
            return cut
    return replaced_whole(whole)


def _field_values_cut(phrases: str) -> str | None:
    """``user=alice3 host=web3 status=ok`` as ``user=[redacted] host=[redacted] status=ok``
    (the value-shaped values go), when every word is a field with a key that is a name."""
    out: list[str] = []
    for m in _WORDS.finditer(phrases):
        split = _KEY_SPLIT.search(m.group())
        if split is None or not _KEY.fullmatch(m.group()[: split.start()]):
            return None
        out.append(_chunk_without_values(m))
    cut = _WORDS.sub(lambda _: out.pop(0), phrases)
    return None if cut == phrases else cut


def _edges_kept(value: str) -> str:
    core = value.strip(_EDGE)
    if not core:
        return value
    start = value.index(core)
    return value[:start] + REDACTED + value[start + len(core) :]


def _chunk_without_values(m: re.Match[str]) -> str:
    chunk = m.group()
    if REDACTED in chunk or not _has_value(chunk):
        return chunk
    split = _KEY_SPLIT.search(chunk)
    if split is not None and not _has_value(chunk[: split.start()]):  # "password=X7": the key stays
        return chunk[: split.end()] + _without_value(chunk[split.end() :])
    return _without_value(chunk)


def _without_value(chunk: str) -> str:
    return _edges_kept(chunk) if _has_value(chunk) else chunk


def without_repeats(original: str, redacted: str) -> str:
    """``redacted`` without the values it lost written again elsewhere in the text, where no
    word names them: "gate code 1938 — if it doesn't work try 1938#" loses both."""
    gone = {_alnum(w) for w in _gone_values(original, redacted)}
    gone = {g for g in gone if len(g) >= _REPEAT_MIN}
    if not gone:
        return redacted

    def scrub(m: re.Match[str]) -> str:
        word = _alnum(m.group())
        return _edges_kept(m.group()) if REDACTED not in m.group() and any(g in word for g in gone) else m.group()

    return _WORDS.sub(scrub, redacted)


def _alnum(word: str) -> str:
    return "".join(c for c in word if c.isalnum())


def replaced_whole(piece: str) -> str:
    """``piece`` as one redaction, its leading space and trailing stop kept."""
    tail = piece[len(piece.rstrip(" ,.!?;\n。！？；，")) :]
    lead = piece[: len(piece) - len(piece.lstrip())]
    return f"{lead}{REDACTED}{tail}"


def _flagged(text: str) -> bool:
    return _sensitive(text) is not None


def _by_rules(text: str) -> bool:
    return _rules(text) is not None


def _with_values_near(text: str, run: tuple[int, int]) -> tuple[int, int]:
    """A run with no value-shaped word named a value without holding it ("pword for the
    garage wifi"): it takes in the nearest value-shaped word a few words on either side, so
    that removing the name never leaves the value ("[redacted] is GarageNet2")."""
    words = [m.span() for m in _WORDS.finditer(text)]
    inside = [i for i, (s, e) in enumerate(words) if s >= run[0] and e <= run[1]]
    if not inside or any(_has_value(text[s:e]) for s, e in words[inside[0] : inside[-1] + 1]):
        return run
    start, end = run
    for i in range(inside[-1] + 1, min(len(words), inside[-1] + 1 + _REACH)):
        if _has_value(text[words[i][0] : words[i][1]]):
            end = words[i][1]
            break
    for i in range(inside[0] - 1, max(-1, inside[0] - 1 - _REACH), -1):
        if _has_value(text[words[i][0] : words[i][1]]):
            start = words[i][0]
            break
    return start, end


def flagged_span(
    text: str, flags: Callable[[str], bool], after: int = 0, *, known: bool = False
) -> tuple[int, int] | None:
    """The start and end of the narrowest run of whole words of ``text`` that ``flags``, or
    None when ``flags`` passes the text (the whole text is the run when nothing shorter is
    flagged). Windows are scanned from about ``after`` on: the caller found what came before
    clean; the whole text is asked first (unless ``known`` to be flagged), and the windows
    only when it is flagged."""
    words = [m.span() for m in _WORDS.finditer(text)]
    found = _first_flagged_window(text, words, flags, after, known)
    if found is None:
        return None
    if not words:
        return 0, len(text)
    lo, hi = found

    def run(i: int, j: int) -> bool:  # words i..j-1
        return flags(text[words[i][0] : words[j - 1][1]])

    # The smallest end still flagged from ``lo``; ``hi`` is known to be. A filter is not
    # strictly monotone on prefixes, but only an end seen flagged is kept.
    short, end = lo + 1, hi
    while short < end:
        mid = (short + end) // 2
        if run(lo, mid):
            end = mid
        else:
            short = mid + 1
    # Then the latest start still flagged up to ``end``.
    start, late = lo, end - 1
    while start < late:
        mid = (start + late + 1) // 2
        if run(mid, end):
            start = mid
        else:
            late = mid - 1
    return words[start][0], words[end - 1][1]


def _first_flagged_window(
    text: str, words: list[tuple[int, int]], flags: Callable[[str], bool], after: int, known: bool
) -> tuple[int, int] | None:
    # The whole text is asked first: most often nothing is left, and one run over it costs
    # less than the windows' overlapping runs (a long log: 186 filter runs -> 4). A text the
    # filter passes whole keeps what a window of it alone would be flagged for, as a message
    # the filter passes is stored whole (``redact_sensitive``).
    if not known and not flags(text):
        return None
    n = len(words)
    if n > _SCAN_WORDS:
        begin = max(0, sum(1 for s, _ in words if s < after) - _SCAN_STEP)
        for lo in range(begin, n - _SCAN_STEP, _SCAN_STEP):
            hi = min(n, lo + _SCAN_WORDS)
            if flags(text[words[lo][0] : words[hi - 1][1]]):
                return lo, hi
    return 0, n


def _is_field(chunk: str) -> bool:
    return _KEY_SPLIT.search(chunk) is not None


def _phrases_around(text: str, start: int, end: int) -> tuple[int, int]:
    """``start``..``end`` widened to the phrases it touches: a phrase starts at a joining word
    or a ``key=value`` field and runs to the next, a field is a phrase of its own."""
    words = [m.span() for m in _WORDS.finditer(text)]
    first = next(i for i, (s, e) in enumerate(words) if e > start)
    last = max(i for i, (s, e) in enumerate(words) if s < end)
    while first > 0 and not _starts_phrase(text, words, first):
        first -= 1
    while last + 1 < len(words) and not _starts_phrase(text, words, last + 1):
        last += 1
    # a quoted value is one phrase whatever words it holds ("'the kettle sings at seven'")
    opened = [text[s] for s, e in words[first : last + 1] if text[s] in _QUOTES and not _closes(text[s:e], text[s])]
    for _ in range(_QUOTED_WORDS if opened else 0):
        if last + 1 >= len(words) or _closes(text[words[last][0] : words[last][1]], opened[-1]):
            break
        last += 1
    return words[first][0], words[last][1]


_QUOTES = {"'": "'", '"': '"', "“": "”", "‘": "’", "«": "»", "„": "“"}
_QUOTED_WORDS = 30


def _closes(chunk: str, quote: str) -> bool:
    return len(chunk) > 1 and chunk.rstrip(".,;:!?)]}").endswith(_QUOTES[quote])


def _starts_phrase(text: str, words: list[tuple[int, int]], i: int) -> bool:
    chunk = text[words[i][0] : words[i][1]]
    if chunk.strip(_EDGE).lower() in _JOINING or _is_field(chunk):
        return True
    return i > 0 and _is_field(text[words[i - 1][0] : words[i - 1][1]])


def _cut_after_name(text: str, run: tuple[int, int], phrases: tuple[int, int]) -> str | None:
    """The phrases with what follows the word naming the value removed ("the wifi password
    is [redacted]", "AWS_SECRET_ACCESS_KEY=[redacted]"), when the words kept name a slot:
    with a value of the category's shape in place of what was removed, the filter flags
    them. None when no naming word in the run passes (the value may come first: "hunter two
    is my password" keeps nothing of it)."""
    start, end = phrases
    cuts: list[tuple[int, int]] = []  # (where the naming word starts, where the cut starts)
    for m in _WORDS.finditer(text, start, run[1]):
        chunk = m.group()
        split = _KEY_SPLIT.search(chunk)
        if split is not None and _KEY.fullmatch(chunk[: split.start()]):
            cuts.append((m.start(), m.start() + split.end()))
        elif _names_next(chunk):
            cuts.append((m.start(), m.end()))
    # the naming word nearest the end of the run first: "the wifi there is slow the door code
    # for the server room is 7714#" keeps "is slow"
    for named, cut in cuts[::-1][:_CUTS_TRIED]:
        if _has_value(text[start:named]) or not _names_a_slot(text, cut):
            continue
        rest = text[cut:end]
        return text[start:cut] + _edges_of(rest)[0] + REDACTED + _edges_of(rest)[1]
    return None


_CUTS_TRIED = 3


def _edges_of(rest: str) -> tuple[str, str]:
    """The quotes, brackets and stops around a value, not a marker's own brackets: "x_[redacted]"
    (a number in it went first) ends in no "]" of its own."""
    body = rest.replace(REDACTED, "\0" * len(REDACTED))
    lead = body[: len(body) - len(body.lstrip(_EDGE + " "))]
    trail = body[len(body.rstrip(_EDGE + " ")) :]
    return lead, trail


def _names_a_slot(text: str, cut: int) -> bool:
    """The words up to ``cut`` (a few of them: "the wifi password is") name a value there."""
    before = " ".join(text[:cut].split()[-_SLOT_WORDS:])
    return any(_sensitive(f"{before} {canary}") is not None for canary in CANARIES)


_SLOT_WORDS = 8
# A value of each category's shape, which the filter does not flag alone
# (tests/unit/test_sensitive_redaction.py checks that): what a slot is filled with.
# (a card or an IBAN is flagged alone, and its number is redacted before any clause is).
CANARIES = ("Qv7#Lm2!Zp9x", "4821", "X4819275", "48210937")


def _names_next(chunk: str) -> bool:
    return chunk.lower() in _NAMING or chunk.endswith((":", "="))


def _has_value(chunk: str) -> bool:
    # (the learned stage's tokens read a run of Chinese or Japanese as a value: a sentence of
    # them, "明日は晴れ。", went as a listed value of the shape of "パスワードは" before it)
    return not _CJK_WORDS.fullmatch(chunk) and any(t.value for t in model_tokens(chunk))


# Chinese and Japanese script and punctuation with no digit and no Latin letter.
_CJK_WORDS = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff0f\uff1a-\uff20\uff5b-\uff65]+")


def _sensitive(text: str) -> SensitiveMatch | None:
    # (the module's own name, looked up when asked: a test may count or replace it)
    return remembered(find_sensitive, text)


def _rules(text: str) -> SensitiveMatch | None:
    return remembered(find_by_rules, text)
