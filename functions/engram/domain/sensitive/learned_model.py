"""The learned second stage of the sensitive-data filter: a value near a word that names it.

The rules of this package find the shapes that can be checked (card brand and Luhn,
IBAN mod-97, national id check digits, provider key formats). What they keep missing on
unfamiliar text is the family "a value near a credential, id or account word" in a
phrasing nobody wrote a rule for: "PlS7GW5JK — that's the VPN password", "log in to the
router with violet126", "Steuerliche Identifikationsnummer: 97633763066".

This stage is a linear model over features of the text around each token: the words
(lower case), their character 3-5-grams (so a typo or an inflection of a known word
still counts: "pasword", "Identifikationsnummer"), word bi- and trigrams, and for every
token that looks like a value (digits, symbols, inner capitals) its shape and the words
within a few tokens before and after it. A value's own characters never become a
feature, so the model learns the context and the shape, not the samples' values.
Since session 19c a value's shape says more (``learned_shapes``: its runs of letters and
digits, entropy, the kind of reference it is, a placeholder, quotes), the nearest word on
each side of it counts apart, a word set off as a value is read with the words around it,
and every word's case and length are paired with its neighbours (``learned_features``).

A text is scored on every window of ``window`` tokens (a linear model summed over a
window is a difference of prefix sums, so every window costs the same as one); the
text is flagged with a category when its best window scores above that category's
threshold. Weights are trained offline (``bench/sensitive_train.py``, scikit-learn
logistic regression) and shipped as ``learned_model.json.gz``; inference here is pure
Python, so the Lambda gains no dependency.
"""

from __future__ import annotations

import gzip
import json
import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from engram.domain.sensitive.learned_features import SET_OFF, Token, context, named, neighbours, own
from engram.domain.sensitive.learned_shapes import chunk_marks, digits_shape, pronounceable, value_shape, word_shape

# Gzipped: the weights are 4.7 MB of JSON and 1.1 MB compressed, and they ship in every
# function's code asset (Lambda unpacks it on each cold start).
WEIGHTS = Path(__file__).with_name("learned_model.json.gz")

_CHUNK = re.compile(r"\S+")
_LEAD = re.compile(r"^[\"'“”‘’`(\[{<«„]+")
_TRAIL = re.compile(r"[\"'“”‘’`)\]}>»,.;:!?…]+$")
_SPLIT_AT = re.compile(r"(?<=[^\W\d_])([:=])(?=\S)")
_JOINED_WORDS = re.compile(r"[^\W\d_]+(?:[_\-./'’][^\W\d_]+)+")
_DIGIT_GROUPS = re.compile(r"\d+(?:[\-./]\d+)*")
# A key's words: snake_case, kebab-case, dotted paths and camelCase ("wifiPassword",
# "identity.nationalId", "doorCode2"; a camelCase key was read as one value, "<v:Aa>", before 21d).
_KEY_JOIN = re.compile(r"[_\-.]+|(?<=[a-z])(?=[A-Z])|(?<=[^\W\d_])(?=\d)")
_SHOUTED_NAME = re.compile(r"[A-Z]+(?:_[A-Z]+)+")
_EXCEPTION_NAME = re.compile(
    r"(?:[A-Z][a-z]+|[A-Z]+(?=[A-Z][a-z]))+(?:Error|Exception|Warning|Fault|Failure|Interrupt)"
)
_MAX_WORD = 24
_ACRONYM_PLURAL = re.compile(r"[A-Z]{2,5}s")


def _is_word(core: str) -> bool:
    # Letters and the marks that join them: a Thai, Hindi or Bengali word has vowel signs
    # (category M), and without them "เลขที่บัญชี" (account number) was read as a value.
    return bool(core) and core[0].isalpha() and all(c.isalpha() or unicodedata.category(c)[0] == "M" for c in core)


def _case_is_plain(word: str) -> bool:
    # A word of a script with no case (Arabic, Hebrew, Thai, CJK) is plain too: read as a
    # shape, "رقم" (number) was a chosen value, so flight notes read as values next to values.
    return (
        word.islower()
        or word.isupper()
        or (word[0].isupper() and word[1:].islower())
        or not any(c.isupper() or c.islower() for c in word)
    )


def _classes(token: str) -> str:
    out: list[str] = []
    for ch in token:
        if ch.isdigit():
            c = "0"
        elif ch.isupper():
            c = "A"
        elif ch.isalpha():
            c = "a"
        else:
            c = "p"
        if not out or out[-1] != c:
            out.append(c)
    return "".join(out)


def _length_bucket(n: int) -> str:
    for limit, name in ((3, "s"), (5, "m"), (8, "l"), (12, "x"), (20, "xx"), (40, "xxx")):
        if n <= limit:
            return name
    return "huge"


@lru_cache(maxsize=4096)
def _core_token(core: str) -> tuple[Token, ...]:
    if not any(c.isalnum() for c in core):
        return (Token(core[:2], (), False, False),)
    if _is_word(core):
        return _word_tokens(core)
    if _JOINED_WORDS.fullmatch(core) and all(_case_is_plain(p) for p in re.split(r"[_\-./'’]", core)):
        parts = [p for p in re.split(r"[_\-./'’]", core) if p]
        if all(len(p) <= 2 for p in parts):  # "p/w", "i.d"
            return (Token(core.lower(), (), True, False),)
        if len(parts) <= 3 or _SHOUTED_NAME.fullmatch(core):
            # "wifi_password", "Steuer-IdNr", "grandpa's"; SLACK_BOT_USER_TOKEN names a setting
            return tuple(Token(p.lower()[:_MAX_WORD], (), True, False, word_shape(p)) for p in parts)
    return (_value(core),)


def _word_tokens(core: str) -> tuple[Token, ...]:
    if len(core) > _MAX_WORD:
        return (Token("<longword>", (), False, False),)
    if _EXCEPTION_NAME.fullmatch(core):  # KeyError, NullPointerException: a name, not a chosen value
        return tuple(Token(n.lower()[:_MAX_WORD], (), True, False) for n in _CODE_NAME.findall(core))
    if _ACRONYM_PLURAL.fullmatch(core):  # "PINs", "IDs", "OTPs": the word, not a value's shape (<v:Aa>)
        return (Token(core.lower(), ("caps",), True, False, word_shape(core)),)
    if not _case_is_plain(core):  # "HarpoonCactus": letters only, shaped like a chosen value
        return (_value(core),)
    shape = word_shape(core)
    # a letter run nobody would read as a word ("qzxvbnkt") may be a chosen value
    odd = ("np",) if len(core) >= 6 and not pronounceable(core) else ()
    if core.isupper() and len(core) >= 6:
        # "PASSWORD" or "PJUPKKECNULU" in a shouted sentence: a word, and maybe the value.
        return (Token(core.lower(), ("caps", *odd), True, True, shape),)
    caps = ("caps",) if core.isupper() and len(core) > 1 else ()
    return (Token(core.lower(), (*caps, *odd), True, False, shape),)


def _value(core: str) -> Token:
    digits = sum(c.isdigit() for c in core)
    if _DIGIT_GROUPS.fullmatch(core):
        groups = re.split(r"[\-./]", core)
        seps = "".join(c for c in core if not c.isdigit())[:1] or ""
        shape = f"g:{seps}" + ".".join(str(len(g)) for g in groups[:6])
        return Token(f"<d{min(digits, 20)}>", (shape, f"dl:{_length_bucket(digits)}", *digits_shape(core)), False, True)
    classes = _classes(core)
    if len(core) >= 16 and all(c in "0123456789abcdefABCDEF-" for c in core):
        # Digests, commit ids and UUIDs: a shape of their own, not a chosen secret.
        return Token("<hex>", (f"hx:{len(core)}",), False, True)
    present = "".join(sorted(set(classes)))
    bucket = _length_bucket(len(core))
    extras = (f"s:{present}:{bucket}", f"r:{classes[:8]}", f"dn:{min(digits, 9)}", *value_shape(core))
    return Token(f"<v:{present}>", extras, False, True)


def tokens(text: str) -> list[Token]:
    out: list[Token] = []
    for chunk in _CHUNK.findall(text):
        out.extend(_chunk_tokens(chunk))
    return out


# Code that names a setting, not a value: os.environ["SLACK_BOT_TOKEN"], os.getenv('DB_PASSWORD'),
# process.env.STRIPE_SECRET_KEY, ${GITHUB_TOKEN}, $API_KEY, settings.api_key, ENV.fetch("X").
# Only names inside the brackets: a quoted value (getenv("X", "s3cr3t!")) is no match.
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
# (a keyword argument given a setting, not a value: Client(api_key=settings.api_key), f(token=TOKEN_ENV))
_SETTING = rf"""{_IDENT}(?:\.{_IDENT})+|[A-Z]+(?:_[A-Z]+)+"""
_ARG = rf"""["']?{_IDENT}["']?"""
_CALL = rf"""\[\s*{_ARG}\s*\]|\(\s*(?:{_ARG}|{_IDENT}\s*=\s*(?:{_SETTING}))?\s*\)"""
_ACCESS = rf"""(?:\.|::|->){_IDENT}|{_CALL}"""
# a call whose arguments go on in the next chunk: os.getenv("SLACK_BOT_TOKEN", "")
_OPEN_CALL = rf"""\(\s*{_ARG}\s*,"""
_CODE_EXPR = re.compile(
    rf"""[\W]*?(?:\$\{{{_IDENT}(?::?-)?\}}|\$[A-Z_][A-Z0-9_]*"""
    rf"""|{_IDENT}(?:{_ACCESS})*(?:{_CALL})(?:{_ACCESS})*|{_IDENT}(?:\.{_IDENT})*{_OPEN_CALL}"""
    rf"""|(?:process|os|env|ENV|environ|settings|config|secrets|vars|self|this|System|import\.meta)(?:\.{_IDENT})+)[\W]*"""
)
# A row of a table pasted as CSV ("4471203,2021-03-04,pro,12"): its cells are read apart.
_CSV_ROW = re.compile(r"[^,;\s]+(?:([,;])[^,;\s]*)(?:\1[^,;\s]*)+")
# A name's cell and a number's with no space after the comma ("Briggs,+44 7700 900412",
# "Okafor,0803"): two cells of a pasted list, not one value of letters, a comma and digits.
_NAME_THEN_NUMBER = re.compile(r"([^\W\d_]{2,}),(\+?\d[\d\-]*)")
_CODE_NAME = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
# A JSON object written without spaces is one chunk: its keys and values are read apart.
_JSON_KEY = re.compile(r'"[^"\s]{1,40}"\s*:')
_JSON_SPLIT = re.compile(r'[{}\[\],]+|(?<=")\s*:\s*(?=["{\[\d\-tfn])')
# An amount or a share (£421.20, $1.87, 5.5%, 300€): what something costs is no secret or number to guard.
_AMOUNT = re.compile(r"[$€£¥₹₽][\d.,]*\d[\d.,]*[kKmM]?|[\d.,]*\d[\d.,]*\s?[%€£$]")


def _code_tokens(chunk: str) -> tuple[Token, ...] | None:
    if not _CODE_EXPR.fullmatch(chunk):
        return None
    names = [n.lower() for ident in re.findall(_IDENT, chunk) for n in _CODE_NAME.findall(ident)]
    return tuple(Token(n[:_MAX_WORD], (), True, False) for n in names if n) or None


# Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Myanmar, Khmer;
# Korean glues its particles): a chunk runs words, a Latin code and a full-width colon together
# ("会员编号：HK-0017", "尾号1877", "รหัสคือabc123"), which read as one value of mixed classes.
# Such a chunk is read in pieces, a script's run apart from what is written in another, and
# its full-width marks as the marks they are ("：" a colon), as a spaced language reads (23e).
_NO_SPACE_SCRIPT = (
    "\u0e00-\u0eff\u1000-\u1049\u104c-\u109f\u1780-\u17d3\u17d6-\u17ff"  # Thai, Lao, Myanmar, Khmer
    "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"  # kana, CJK, Hangul
)
_WIDE_MARKS = "\u104a\u104b\u17d4\u17d5\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
_IN_NO_SPACE_SCRIPT = re.compile(f"[{_NO_SPACE_SCRIPT}{_WIDE_MARKS}]")
_GLUED_PIECE = re.compile(f"[{_WIDE_MARKS}]+|[{_NO_SPACE_SCRIPT}]+|[^{_NO_SPACE_SCRIPT}{_WIDE_MARKS}]+")
_AS_MARKS = str.maketrans(
    "：，、。；！？（）［］｛｝＝＃＠＆＊＋－／｜「」『』【】《》〈〉၊။។", ':,,.;!?()[]{}=#@&*+-/|""""[]"""",..'
)


@lru_cache(maxsize=16384)
def _chunk_tokens(chunk: str) -> tuple[Token, ...]:
    if _IN_NO_SPACE_SCRIPT.search(chunk):
        pieces = [p.translate(_AS_MARKS) for p in _GLUED_PIECE.findall(chunk)]
        if pieces != [chunk]:
            return tuple(t for p in pieces for t in _spaced_chunk_tokens(p))
    return _spaced_chunk_tokens(chunk)


def _spaced_chunk_tokens(chunk: str) -> tuple[Token, ...]:
    if _AMOUNT.fullmatch(chunk.rstrip(",.;:!?)")):
        return (Token("<amount>", (), False, False),)
    code = _code_tokens(chunk) if any(c in chunk for c in "[($.") else None
    if code is not None:
        return code
    if len(chunk) > 4 and _JSON_KEY.search(chunk):
        pieces = [p.strip() for p in _JSON_SPLIT.split(chunk)]
        if len(pieces) > 1:
            return tuple(t for p in pieces if p for t in _plain_chunk_tokens(p))
    cells = _NAME_THEN_NUMBER.fullmatch(chunk)
    if cells and _case_is_plain(cells.group(1)):
        return (*_core_token(cells.group(1)), Token(",", (), False, False), *_core_token(cells.group(2)))
    row = _CSV_ROW.fullmatch(chunk)
    if row:
        comma = Token(row.group(1), (), False, False)
        return tuple(t for p in chunk.split(row.group(1)) for t in (comma, *_plain_chunk_tokens(p)) if p or t is comma)
    return _plain_chunk_tokens(chunk)


def _plain_chunk_tokens(chunk: str) -> tuple[Token, ...]:
    out: list[Token] = []
    lead = _LEAD.match(chunk)
    start = lead.end() if lead else 0
    if lead:
        out.append(Token(chunk[0], (), False, False))
    rest = chunk[start:]
    trail = _TRAIL.search(rest)
    # A password may end in "!" or "." ("s3cr3t!"): the mark is split off, the shape
    # of what is left still reads as a value.
    core = rest[: trail.start()] if trail and trail.start() > 0 else rest
    if core:
        split = _SPLIT_AT.search(core)
        if split and split.end() < len(core):
            out.extend(_core_token(core[: split.start()]))
            out.append(Token(split.group(1), (), False, False))
            # KEY=$KEY, token=os.environ["X"]: the setting is named, no value given
            out.extend(_code_tokens(core[split.end() :]) or _core_token(core[split.end() :]))
        elif lead and trail and trail.start() > 0 and (marks := chunk_marks(lead.group(), trail.group())):
            # "Coco" quoted, <your-api-key> bracketed: how the writer set it off
            out.extend(Token(t.norm, (*t.extras, *marks), t.word, t.value, t.shape) for t in _core_token(core))
        else:
            out.extend(_core_token(core))
    if trail and trail.start() > 0:
        out.append(Token(trail.group()[0], (), False, False))
    return tuple(out)


def position_features(text: str) -> list[list[str]]:
    """Every token's features, in order: the model's input as training reads it."""
    toks = tokens(text)
    out: list[list[str]] = []
    for i, t in enumerate(toks):
        prev = toks[i - 1].norm if i else "^"
        nxt = toks[i + 1].norm if i + 1 < len(toks) else "$"
        f = [*own(t), f"b:{prev}|{t.norm}", f"t:{toks[i - 2].norm if i > 1 else '^'}|{prev}|{t.norm}"]
        f.extend(neighbours(prev, t.shape, nxt))
        if t.value or (t.word and (prev in SET_OFF or "qt" in t.extras)):
            for k in context(toks, i):
                f.extend(named(k, t.value))
        out.append(f)
    return out


def model_text(text: str, key: str = "") -> str:
    """What the model reads for a value stored under a key: the key spelled out, then the text."""
    return f"{_KEY_JOIN.sub(' ', key)} : {text}" if key else text


_NAMED_VALUE_CLASSES = frozenset(["government_id", "bank_account"])
_Vector = tuple[float, float, float]
Evidence = tuple[tuple[float, ...], bool, bool]
_ZERO: _Vector = (0.0, 0.0, 0.0)
_CACHE_LIMIT = 50_000


class ValueModel:
    """Three classes (secret, government id, bank account), a weight vector per feature."""

    def __init__(
        self,
        classes: tuple[str, ...],
        bias: tuple[float, ...],
        thresholds: tuple[float, ...],
        window: int,
        weights: dict[str, tuple[float, ...]],
        words_only_margin: float = 0.0,
    ) -> None:
        if not len(classes) == len(bias) == len(thresholds) == 3:
            raise ValueError("the value model has three classes")
        self.classes = classes
        self.bias = bias
        self.thresholds = thresholds
        self.window = window
        self.words_only_margin = words_only_margin
        self.weights = weights
        # Sums of a feature group's weights, by what determines the group (a word's own
        # features, a word naming a value before or after it): text repeats its words.
        self._sums: dict[object, _Vector] = {}
        self._ngrams: dict[tuple[str, ...], _Vector] = {}

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> ValueModel:
        raw = json.loads(gzip.decompress(path.read_bytes()))
        return cls(
            classes=tuple(raw["classes"]),
            bias=tuple(raw["bias"]),
            thresholds=tuple(raw["thresholds"]),
            window=int(raw["window"]),
            words_only_margin=float(raw.get("words_only_margin", 0.0)),
            weights={k: tuple(v) for k, v in raw["weights"].items()},
        )

    def _sum(self, feats: list[str]) -> _Vector:
        get = self.weights.get
        a = b = c = 0.0
        for f in feats:
            w = get(f)
            if w is not None:
                a += w[0]
                b += w[1]
                c += w[2]
        return (a, b, c)

    def _group(self, key: object, build: Callable[[], list[str]]) -> _Vector:
        found = self._sums.get(key)
        if found is None:
            if len(self._sums) > _CACHE_LIMIT:
                self._sums.clear()
            found = self._sums[key] = self._sum(build())
        return found

    def scores(self, text: str) -> tuple[float, ...]:
        """Each class's best window score (a log-odds): the same sums ``position_features``
        gives training, grouped so that repeated words cost a dictionary look-up."""
        return self._scores(tokens(text))

    def _scores(self, toks: list[Token]) -> tuple[float, ...]:
        group = self._group
        sums = self._sums
        ngrams = self._ngrams
        if len(ngrams) > _CACHE_LIMIT:
            ngrams.clear()
        xs: list[float] = []
        ys: list[float] = []
        zs: list[float] = []
        before, prev = "^", "^"
        last = len(toks) - 1
        for i, t in enumerate(toks):
            found = sums.get(t)
            a, b, c = found if found is not None else group(t, lambda t=t: own(t))  # type: ignore[misc]
            # the n-grams' weights and a word's shape beside its neighbours, summed once per
            # (two before, one before, this, the next for a word): a repeated phrase looks up nothing
            nxt = (toks[i + 1].norm if i < last else "$") if t.shape else ""
            k = (before, prev, t.norm, t.shape, nxt)
            w = ngrams.get(k)
            if w is None:
                grams = [f"b:{prev}|{t.norm}", f"t:{before}|{prev}|{t.norm}", *neighbours(prev, t.shape, nxt)]
                w = ngrams[k] = self._sum(grams)
            a += w[0]
            b += w[1]
            c += w[2]
            if t.value or (t.word and (prev in SET_OFF or "qt" in t.extras)):
                for near in context(toks, i):
                    w = group((near, t.value), lambda k=near, v=t.value: named(k, v))  # type: ignore[misc]
                    a += w[0]
                    b += w[1]
                    c += w[2]
            xs.append(a)
            ys.append(b)
            zs.append(c)
            before, prev = prev, t.norm
        return tuple(self._best(v) + bias for v, bias in zip((xs, ys, zs), self.bias, strict=True))

    def _best(self, values: list[float]) -> float:
        n = len(values)
        if n == 0:
            return 0.0
        span = min(self.window, n)
        total = best = sum(values[:span])
        for i in range(span, n):
            total += values[i] - values[i - span]
            if total > best:
                best = total
        return best

    def classify(self, text: str) -> str | None:
        """The class whose best window clears its threshold by the most, if any. A single
        token is a word or a value, never a value near a word naming it."""
        return self.verdict(self.evidence(text), self.thresholds, self.words_only_margin)

    def evidence(self, text: str) -> Evidence | None:
        """Each class's best window score, whether some value has a word next to it, and
        whether the text holds a value at all; None for a single token."""
        if len(_CHUNK.findall(text, 0, 200)) < 2:
            return None
        toks = tokens(text)
        named = any(t.value and context(toks, i) for i, t in enumerate(toks))
        return self._scores(toks), named, named or any(t.value for t in toks)

    def verdict(self, evidence: Evidence | None, thresholds: tuple[float, ...], words_only_margin: float) -> str | None:
        if evidence is None:
            return None
        scores, named, has_value = evidence
        margins = [(s - t, c) for s, t, c in zip(scores, thresholds, self.classes, strict=True)]
        if not has_value:
            # Words only: a security answer is words ("first pet: Biscuit"), but so is a
            # traceback naming SLACK_BOT_TOKEN three times; with no value the words must
            # weigh more.
            margins = [(m - words_only_margin, c) for m, c in margins]
        if not named:
            # An id or an account number is a value a word names: with no value next to a
            # word ("12" on eight lines) the sum of bare shapes is no evidence of either.
            margins = [(m, c) for m, c in margins if c not in _NAMED_VALUE_CLASSES]
        margin, cls = max(margins, default=(0.0, ""))
        return cls if margin > 0 else None


@lru_cache(maxsize=1)
def model() -> ValueModel:
    """The shipped weights, read once. Missing weights fail loudly: a filter that quietly
    lost its second stage would let through what it was measured to catch."""
    return ValueModel.load()
