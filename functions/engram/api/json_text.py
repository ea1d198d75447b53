"""The JSON text of API answers: the standard encoder's bytes, written by orjson.

Powertools writes every response body with ``json.dumps(body, separators=(",", ":"),
cls=Encoder)``. For a recall answer (a few hundred values, most of them floats) that
took longer than ranking the answer did; orjson writes the same document about ten
times faster. ``dumps`` returns the standard encoder's exact text:

- orjson writes characters outside printable ASCII as they are; the standard encoder
  (``ensure_ascii``) escapes them as ``\\uXXXX``. They only occur inside strings, so
  escaping them afterwards gives the same text.
- Floats that the standard encoder writes in exponent form (below 1e-4 or from 1e16)
  orjson writes otherwise; an answer that may hold one is written by the standard
  encoder. The check is on the text, so a string that only looks like such a number
  costs a slower write, never a different one.
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

# A number token in exponent form, below 1e-4 written out, or of 17 digits or more
# before the point: where orjson's float text may differ from repr's.
_UNLIKE_REPR = re.compile(rb"(?:^|[:,\[])-?(?:\d+(?:\.\d+)?[eE]|0\.0000|\d{17,})")
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


def dumps(value: Any) -> str:
    """``json.dumps(value, separators=(",", ":"), cls=Encoder)``, faster."""
    try:
        raw = orjson.dumps(value, default=_refuse, option=_OPTIONS)
    except (TypeError, orjson.JSONEncodeError):
        return _standard(value)
    if _UNLIKE_REPR.search(raw):
        return _standard(value)
    text = raw.decode()
    if not text.isascii() or "\x7f" in text:
        text = _NOT_PRINTABLE_ASCII.sub(_escape, text)
    return text
