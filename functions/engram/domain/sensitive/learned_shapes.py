"""What the learned stage reads of a candidate value itself, and of a word's shape.

Session 18x's diagnosis of the learned stage's errors on unseen text: it read the words
around a value well and the value too little. It refused text that names a secret and
gives a reference instead (an e-mail address, a URL, a path, a file's name, a handle, a
documentation example or a placeholder), and missed secrets that look ordinary (a word
and a year, a leet-spelt word, a quoted name). So a value is described by more than its
character classes: its structure (pronounceable letter runs, digit runs and the marks
between them), its entropy, what kind of reference it is if any, whether it is a
placeholder, and whether it was quoted or bracketed. A value's own characters still never
become a feature: only shapes and kinds do, so the model learns shapes, not samples.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache

_VOWELS = frozenset("aeiouyäöüéèêáàíóúåøæ")
_EMAIL = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+")
_HOST = re.compile(r"[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.[a-z]{2,6}")
_FILE = re.compile(
    r"[^/\\]*\.(?:key|pem|env|json|ya?ml|txt|cnf|conf|cfg|ini|toml|kdbx|p12|pfx|crt|cer|csv|py|js|ts|sh|log"
    r"|db|sqlite|pdf|docx?|xlsx?|zip|gpg|asc|pub|git|md|html?|php|xml|plist|lock)",
    re.IGNORECASE,
)
# What fills a value's place when the value is not given: xxx, ***, •••, ..., ###, 0000.
_FILLER = re.compile(r"([xX*•#.·_\-?])\1{2,}|^(\d)\2{3,}$")
_STAND_IN = re.compile(r"example|redacted|placeholder|changeme|your|dummy|sample|fake|hidden|masked", re.IGNORECASE)
_RUNS = re.compile(r"[^\W\d_]+|\d+|.", re.DOTALL)
_MAX_UNITS = 8


def pronounceable(letters: str) -> bool:
    """Letters a person would read as a word ("harbor", "Bailey", "mato"), not a random run
    ("NTLKQXPVMB", "xQz"): vowels in a word's share and no long consonant cluster."""
    low = letters.lower()
    if len(low) < 3:
        return False
    vowels = sum(c in _VOWELS for c in low)
    if not 0.2 <= vowels / len(low) <= 0.7:
        return False
    cluster = 0
    for c in low:
        cluster = 0 if c in _VOWELS else cluster + 1
        if cluster > 3:
            return False
    return True


def _structure(core: str) -> str:
    """ "Bailey2017" -> "WD4", "Gr33nT0mato!" -> "LD2LD1W!", "Kelp_Harbor_19" -> "W_W_D2"."""
    units: list[str] = []
    for run in _RUNS.findall(core):
        if run[0].isdigit():
            units.append(f"D{len(run)}" if len(run) <= 4 else "D+")
        elif run[0].isalpha():
            units.append("W" if pronounceable(run) else "L")
        else:
            units.append(run)
        if len(units) > _MAX_UNITS:
            units[_MAX_UNITS:] = ["+"]
            break
    return "".join(units)


def _entropy(core: str) -> tuple[str, str]:
    counts = Counter(core)
    n = len(core)
    per_char = -sum(c / n * math.log2(c / n) for c in counts.values())
    bits = per_char * n
    total = next((name for limit, name in ((12, "0"), (20, "1"), (30, "2"), (45, "3"), (70, "4")) if bits < limit), "5")
    return f"eb:{total}", f"ec:{min(int(per_char * 2), 9)}"


def _kind(core: str) -> str | None:
    low = core.lower()
    if "://" in core or core.startswith("//") or low.startswith("www."):
        return "url"
    if core.startswith("@") and len(core) > 2:
        return "handle"
    if _EMAIL.fullmatch(core):
        return "email"
    if core.startswith(("/", "~", "./", "../")) or re.match(r"[A-Za-z]:[\\/]", core) or core.count("\\") >= 2:
        return "path"
    if _FILE.fullmatch(core):
        return "file"
    if _HOST.fullmatch(core):
        return "host"
    if "@" in core and ":" in core:  # git@github.com:me/repo.git
        return "remote"
    return None


@lru_cache(maxsize=8192)
def value_shape(core: str) -> tuple[str, ...]:
    """A value's own shape beyond its character classes (unigram features of the token)."""
    out = [f"st:{_structure(core)}", *_entropy(core)]
    kind = _kind(core)
    if kind:
        out.append(f"k:{kind}")
    if _FILLER.search(core) or _STAND_IN.search(core):
        out.append("ph")
    letters = [r for r in _RUNS.findall(core) if r[0].isalpha() and len(r) >= 3]
    if letters:
        spoken = sum(pronounceable(r) for r in letters)
        out.append(f"wl:{min(spoken, 3)}:{min(len(letters) - spoken, 3)}")
    return tuple(out)


@lru_cache(maxsize=4096)
def digits_shape(core: str) -> tuple[str, ...]:
    """A number's own shape: one digit repeated, a counting run, a year, how many distinct digits."""
    digits = [int(c) for c in core if c.isdigit()]
    out = [f"dd:{min(len(set(digits)), 8)}"]
    steps = {b - a for a, b in zip(digits, digits[1:], strict=False)}
    if len(digits) >= 3 and len(set(digits)) == 1:
        out.append("dp:same")
    elif len(digits) >= 3 and steps in ({1}, {-1}):
        out.append("dp:run")
    if len(core) == 4 and core.isdigit() and core[:2] in ("19", "20"):
        out.append("dp:year")
    return tuple(out)


def word_shape(word: str) -> str:
    """A word's case and length, the class its neighbours are paired with ("is" + a capitalised word)."""
    if not any(c.isupper() or c.islower() for c in word):
        case = "o"
    elif word.islower():
        case = "l"
    elif word.isupper():
        case = "U"
    else:
        case = "T"
    n = len(word)
    size = "s" if n <= 3 else "m" if n <= 6 else "l" if n <= 10 else "x"
    return f"W{case}{size}"


def chunk_marks(lead: str, trail: str) -> tuple[str, ...]:
    """How a token was set off in its chunk: quoted, or bracketed like a placeholder (<...>, {...})."""
    if not lead or not trail:
        return ()
    if lead[-1] == "<" and trail[0] == ">":
        return ("ph:angle",)
    if lead[-1] in "{[" and trail[0] in "}]":
        return ("ph:brace",)
    if lead[-1] in "\"'“”‘’`«„" and trail[0] in "\"'“”‘’`»":
        return ("qt",)
    return ()
