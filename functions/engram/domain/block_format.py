"""The forms of a memory block, as pure functions.

- compact: the token-efficient prompt form (``[USER] Alice | Student``), one way only;
- Markdown: for people to read and edit (front matter, one ``## Heading`` per field);
- TOML and JSON: for machines.

Markdown, TOML and JSON parse back to exactly the canonical values they were rendered
from (``from_x(to_x(v)) == v``); the unit tests check it for arbitrary values.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from typing import Any

import tomli_w

from engram.domain.block_schema import BlockField, BlockSchema, BlockValues, FieldKind, FieldValue
from engram.domain.blocks import canonical, values_to_plain
from engram.domain.errors import ValidationFailed

# -- compact ------------------------------------------------------------------------------


def compact_field(schema: BlockSchema, name: str, value: FieldValue) -> str:
    f = schema.field(name)
    return f.item_separator.join(value) if isinstance(value, tuple) else value


def to_compact(schema: BlockSchema, values: BlockValues) -> str:
    """``[TAG] value`` lines in the schema's layout; empty fields leave no line."""
    lines: list[str] = []
    for line in schema.layout():
        parts = [compact_field(schema, n, values[n]) for n in line.fields if n in values]
        if parts:
            lines.append(f"[{line.tag}] " + line.separator.join(parts))
    return "\n".join(lines)


def compact_size(schema: BlockSchema, values: BlockValues) -> int:
    return len(to_compact(schema, values))


# -- Markdown -----------------------------------------------------------------------------

_FENCE = "---"


def _escape(line: str) -> str:
    # A text line that would read as a heading (or as an escape) gets a backslash.
    return "\\" + line if line.startswith(("#", "\\")) else line


def _unescape(line: str) -> str:
    return line[1:] if line.startswith("\\") else line


def to_markdown(schema: BlockSchema, values: BlockValues, version: int | None = None) -> str:
    """Front matter naming the block (and its version), then every field as a section.

    Empty fields still get their heading, so that whoever edits sees what can be filled.
    """
    out = [_FENCE, f"block: {schema.name}"]
    if version is not None:
        out.append(f"version: {version}")
    out += [_FENCE, ""]
    for f in schema.fields:
        out.append(f"## {f.heading}")
        value = values.get(f.name)
        if isinstance(value, tuple):
            out.extend(f"- {item}" for item in value)
        elif value is not None:
            out.extend(_escape(line) for line in value.split("\n"))
        out.append("")
    return "\n".join(out)


def from_markdown(schema: BlockSchema, text: str) -> tuple[dict[str, FieldValue], int | None]:
    """Canonical values and the version named in the front matter (if any).

    A missing section means an empty field: the document is the whole block.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    version: int | None = None
    if i < len(lines) and lines[i].strip() == _FENCE:
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == _FENCE), None)
        if end is None:
            raise ValidationFailed("The front matter opened with '---' is never closed.", line=i + 1)
        version = _front_matter(schema, lines[i + 1 : end], i + 2)
        i = end + 1
    sections = _sections(schema, lines, i)
    raw: dict[str, Any] = {name: _section_value(schema.field(name), _trimmed(body)) for name, body in sections.items()}
    return canonical(schema, raw), version


def _sections(schema: BlockSchema, lines: list[str], first: int) -> dict[str, list[str]]:
    """The body lines under each '## ' heading, by field name."""
    by_heading = {f.heading.casefold(): f for f in schema.fields}
    by_heading.update({f.name.casefold(): f for f in schema.fields})
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for n in range(first, len(lines)):
        line = lines[n]
        if line.startswith("## "):
            current = _section_field(schema, by_heading, line[3:].strip(), sections, n + 1)
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
        elif line.strip():
            raise ValidationFailed(f"Line {n + 1}: text before the first '## ' section.", line=n + 1)
    return sections


def _section_field(
    schema: BlockSchema, by_heading: dict[str, BlockField], heading: str, seen: dict[str, list[str]], line_no: int
) -> str:
    f = by_heading.get(heading.casefold())
    if f is None:
        raise ValidationFailed(
            f"Line {line_no}: block '{schema.name}' has no section '{heading}'; its sections are "
            + ", ".join(x.heading for x in schema.fields)
            + ".",
            line=line_no,
        )
    if f.name in seen:
        raise ValidationFailed(f"Line {line_no}: section '{heading}' appears twice.", line=line_no)
    return str(f.name)


def _trimmed(body: list[str]) -> list[str]:
    """The section without its leading and trailing blank lines."""
    start, stop = 0, len(body)
    while start < stop and not body[start].strip():
        start += 1
    while stop > start and not body[stop - 1].strip():
        stop -= 1
    return body[start:stop]


def _section_value(f: BlockField, body: list[str]) -> str | list[str]:
    if f.kind is not FieldKind.LIST:
        return "\n".join(_unescape(line) for line in body)
    items: list[str] = []
    for line in body:
        if not line.strip():
            continue
        stripped = line.lstrip()
        if not stripped.startswith(("- ", "* ")) and stripped not in ("-", "*"):
            raise ValidationFailed(
                f"Section '{f.heading}' is a list: write each item on its own line starting with '- '.",
                field=f.name,
            )
        items.append(stripped[2:])
    return items


def _front_matter(schema: BlockSchema, lines: list[str], first_line: int) -> int | None:
    version: int | None = None
    for offset, line in enumerate(lines):
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not sep:
            raise ValidationFailed(f"Line {first_line + offset}: front matter lines are 'name: value'.")
        if key == "block":
            if value != schema.name:
                raise ValidationFailed(
                    f"This document is block '{value}', not '{schema.name}'.", line=first_line + offset
                )
        elif key == "version":
            if not value.isdigit():
                raise ValidationFailed("The front matter version must be a whole number.", line=first_line + offset)
            version = int(value)
        else:
            raise ValidationFailed(
                f"Line {first_line + offset}: unknown front matter '{key}' (only 'block' and 'version').",
                line=first_line + offset,
            )
    return version


# -- TOML and JSON ------------------------------------------------------------------------


def to_toml(values: BlockValues) -> str:
    return tomli_w.dumps(values_to_plain(values), multiline_strings=True)


def from_toml(schema: BlockSchema, text: str) -> dict[str, FieldValue]:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValidationFailed(f"The TOML does not parse: {exc}.") from exc
    return canonical(schema, raw)


def to_json(values: BlockValues) -> str:
    return json.dumps(values_to_plain(values), ensure_ascii=False, indent=2)


def from_json(schema: BlockSchema, text: str) -> dict[str, FieldValue]:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationFailed(f"The JSON does not parse: {exc.msg} at line {exc.lineno}.") from exc
    if not isinstance(raw, Mapping):
        raise ValidationFailed("The JSON must be an object of field names to values.")
    return canonical(schema, raw)
