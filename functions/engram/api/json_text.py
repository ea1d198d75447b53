"""The JSON text of API answers: the standard encoder's bytes, written by orjson.

Powertools writes every response body with ``json.dumps(body, separators=(",", ":"),
cls=Encoder)``. For a recall answer (a few hundred values, most of them floats) that
took longer than ranking the answer did; orjson writes the same document about ten
times faster. ``dumps`` returns the standard encoder's exact text:

- orjson writes characters outside printable ASCII as they are; the standard encoder
  (``ensure_ascii``) escapes them as ``\\uXXXX``. They only occur inside strings, so
  escaping them afterwards gives the same text.
- Floats from 1e-9 to below 1e-4 orjson writes otherwise than repr (0.00001 for
  1e-05, 1e-9 for 1e-09); an answer that may hold one is written by the standard
  encoder (``_unlike_repr``).
- Whatever orjson does not write exactly as the standard encoder would (other types,
  integers beyond 64 bits, keys that are not strings, lone surrogates, nesting deeper
  than 254) is written by the standard encoder.

One difference is left: NaN and the infinities, which JSON has no words for, are
written as ``null`` (the standard encoder wrote ``NaN``, which strict parsers refuse).
No answer is meant to hold one.
"""

from __future__ import annotations

import json
import re
from functools import partial
from typing import Any

import orjson
from aws_lambda_powertools.shared.json_encoder import Encoder

_standard = partial(json.dumps, separators=(",", ":"), cls=Encoder)

_DIGITS = frozenset(b"0123456789")
_NOT_PRINTABLE_ASCII = re.compile(r"[^\x20-\x7e]")
# Everything orjson would write in a way of its own (dates, dataclasses, subclasses of
# str, int, dict and list) goes to ``_refuse`` instead, and so to the standard encoder.
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_SUBCLASS


def _refuse(value: Any) -> Any:
    raise TypeError


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 | (code >> 10):04x}\\u{0xDC00 | (code & 0x3FF):04x}"


def _unlike_repr(raw: bytes) -> bool:
    """Whether a float may be written otherwise than repr writes it.

    They differ only from 1e-9 to below 1e-4: repr writes 1e-05 and 1e-09, orjson
    0.00001 and 1e-9. So: ``0.0000`` anywhere, or a digit, ``e-``, one digit and no
    other. Found with ``bytes.find`` (a regular expression took longer than the whole
    of orjson's write); a string that only looks like it costs a slower write, never a
    different one.
    """
    if b"0.0000" in raw:
        return True
    at = raw.find(b"e-")
    while at != -1:
        if at and raw[at - 1] in _DIGITS and raw[at + 2 : at + 3].isdigit() and not raw[at + 3 : at + 4].isdigit():
            return True
        at = raw.find(b"e-", at + 2)
    return False


def dumps(value: Any) -> str:
    """``json.dumps(value, separators=(",", ":"), cls=Encoder)``, faster."""
    try:
        raw = orjson.dumps(value, default=_refuse, option=_OPTIONS)
    except (TypeError, orjson.JSONEncodeError):
        return _standard(value)
    if _unlike_repr(raw):
        return _standard(value)
    text = raw.decode()
    if not text.isascii() or "\x7f" in text:
        text = _NOT_PRINTABLE_ASCII.sub(_escape, text)
    return text
