"""Request hygiene that must run before a body is parsed."""

from __future__ import annotations

MAX_JSON_DEPTH = 32


def json_depth_exceeds(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether a JSON text nests arrays/objects deeper than ``limit``.

    A linear scan that respects strings and escapes, stopping as soon as the limit is
    passed: Python's json parser recurses per level and a body of ten thousand '['
    would otherwise exhaust the stack inside the framework.
    """
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False
