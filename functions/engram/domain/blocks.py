"""Memory blocks (core memory, behaviour item 16): a block's state, values and edits.

A block is a small, named, structured document per (user, agent): the agent's
``persona``, what it knows of the ``human``, or a custom block whose schema an agent's
configuration defines (``block_schema``: the fields, the built-in schemas and presets).
Values are plain mappings in a canonical form so that every serialisation (compact,
Markdown, TOML, JSON) round-trips exactly.

Canonical values: a text or choice field holds a stripped, non-empty string; a list
field holds a tuple of stripped, non-empty, single-line items; an empty field is absent
(or holds its schema default).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from engram.domain.block_schema import BlockField, BlockSchema, BlockValues, FieldKind, FieldValue
from engram.domain.errors import GuardrailViolation, ValidationFailed
from engram.domain.models import Actor, ActorType
from engram.domain.serialization import parse_ts, ts

# Tab and newline are text; every other control character is refused so that no format
# (TOML escapes, Markdown lines, prompts) can be confused by one.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


# -- block state -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MemoryBlock:
    """The current version of one block of one user, as seen by one agent."""

    tenant_id: str
    user_id: str
    agent_id: str
    name: str
    values: Mapping[str, FieldValue]
    version: int
    created_at: datetime
    updated_at: datetime
    updated_by: Actor
    deleted: bool = False
    # Adaptive rotation state: the threshold in force and whether recent changes rotated.
    threshold: float | None = None
    recent_rotations: tuple[bool, ...] = ()


class BlockChangeKind(StrEnum):
    CREATED = "created"
    UPDATED = "updated"
    ROTATED = "rotated"
    TASK_COMPLETED = "task_completed"
    RESTORED = "restored"
    DELETED = "deleted"


@dataclass(frozen=True, slots=True)
class BlockVersion:
    """One version of a block: the block as it was after the change."""

    block: MemoryBlock
    change: BlockChangeKind
    actor: Actor
    reason: str
    at: datetime
    archived_ids: tuple[str, ...] = ()
    proposal_id: str | None = None

    @property
    def version(self) -> int:
        return self.block.version


@dataclass(frozen=True, slots=True)
class BlockEdit:
    """A change to a block: replace it whole, or set, append to and remove from fields.

    ``complete_task`` applies first; then ``replace`` wins over the rest; otherwise
    ``set`` applies (``None`` clears a field), then ``remove``, then ``append``.
    """

    replace: Mapping[str, Any] | None = None
    set: Mapping[str, Any] = field(default_factory=dict)
    append: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    remove: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Finish the current task first: it goes to archival memory with its context, and
    # the block returns to idle (see ``TaskSpec``).
    complete_task: bool = False
    task_notes: str | None = None
    keep_context: bool = False

    def is_empty(self) -> bool:
        return self.replace is None and not self.set and not self.append and not self.remove and not self.complete_task


def edit_texts(edit: BlockEdit) -> Iterator[tuple[str, str]]:
    """(field, text) of everything an edit would store."""
    for values in (edit.replace or {}, edit.set, edit.append):
        for name, value in values.items():
            items = value if isinstance(value, list | tuple) else (value,)
            yield from ((name, str(v)) for v in items if v is not None)
    if edit.task_notes:
        yield "task_notes", edit.task_notes


# -- values ------------------------------------------------------------------------------------


def canonical(schema: BlockSchema, raw: Mapping[str, Any]) -> dict[str, FieldValue]:
    """Validate raw values (from JSON, TOML or Markdown) into canonical form.

    List limits are *not* applied here: an over-long list is a question for the write
    (archive or refuse, see ``enforce_list_limits``); everything else that is wrong raises.
    """
    unknown = [k for k in raw if k not in schema.field_names]
    if unknown:
        raise ValidationFailed(
            f"Block '{schema.name}' has no field '{unknown[0]}'; its fields are {', '.join(schema.field_names)}.",
            field=unknown[0],
        )
    out: dict[str, FieldValue] = {}
    for f in schema.fields:
        value = raw.get(f.name)
        if f.kind is FieldKind.LIST:
            items = _list_value(f, value)
            if items:
                out[f.name] = items
            continue
        text = _text_or_default(f, value)
        if text is not None:
            out[f.name] = text
    return out


def _text_or_default(f: BlockField, value: Any) -> str | None:
    """A text or choice field's value, else its default; a choice must be one of its own."""
    text = _text_value(f, value)
    if text is None:
        text = f.default
    if text is not None and f.kind is FieldKind.CHOICE and text not in f.choices:
        raise ValidationFailed(
            f"Field '{f.name}' must be one of {', '.join(f.choices)}.", field=f.name, choices=list(f.choices)
        )
    return text


def _text_value(f: BlockField, value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationFailed(f"Field '{f.name}' takes text.", field=f.name)
    text = value.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        return None
    if _CONTROL.search(text):
        raise ValidationFailed(f"Field '{f.name}' contains a control character.", field=f.name)
    if f.kind is FieldKind.CHOICE and "\n" in text:
        raise ValidationFailed(f"Field '{f.name}' takes one line.", field=f.name)
    if len(text) > f.max_item_chars:
        raise GuardrailViolation(
            "block_field_too_long",
            f"Field '{f.name}' has {len(text)} characters; it takes at most {f.max_item_chars}.",
            field=f.name,
            maxChars=f.max_item_chars,
        )
    return text


def _list_value(f: BlockField, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise ValidationFailed(f"Field '{f.name}' takes a list of text items.", field=f.name)
    return tuple(text for text in (_list_item(f, item) for item in value) if text)


def _list_item(f: BlockField, item: Any) -> str:
    """One item of a list field, stripped ("" for a blank one, which is left out)."""
    if not isinstance(item, str):
        raise ValidationFailed(f"Field '{f.name}' takes a list of text items.", field=f.name)
    text = item.strip()
    if text and ("\n" in text or "\r" in text or _CONTROL.search(text)):
        raise ValidationFailed(f"Items of '{f.name}' are single lines of text.", field=f.name)
    if len(text) > f.max_item_chars:
        raise GuardrailViolation(
            "block_field_too_long",
            f"An item of '{f.name}' has {len(text)} characters; items take at most {f.max_item_chars}.",
            field=f.name,
            maxChars=f.max_item_chars,
        )
    return text


def _same_item(a: str, b: str) -> bool:
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def apply_edit(schema: BlockSchema, values: BlockValues, edit: BlockEdit) -> dict[str, FieldValue]:
    """The canonical values after ``edit`` (pure; limits are the write's business)."""
    if edit.replace is not None:
        return canonical(schema, edit.replace)
    result = canonical(schema, _edited(schema, values, edit))
    task = schema.task
    if task is not None and task.state_field is not None and task.active_state is not None:
        set_task = task.task_field in edit.set and result.get(task.task_field)
        if set_task and task.state_field not in edit.set:
            # Setting a task means working on it (YouLab's set_task).
            result[task.state_field] = task.active_state
    return result


def _edited(schema: BlockSchema, values: BlockValues, edit: BlockEdit) -> dict[str, Any]:
    """The values with ``edit``'s sets, removals and appends applied, not yet canonical."""
    current: dict[str, Any] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in values.items()}
    for name, value in edit.set.items():
        schema.field(name)
        current[name] = value
    for name, items in edit.remove.items():
        current[_list_field(schema, name, "remove")] = _removed(current.get(name) or [], items)
    for name, items in edit.append.items():
        current[_list_field(schema, name, "append")] = _appended(list(current.get(name) or []), items)
    return current


def _list_field(schema: BlockSchema, name: str, operation: str) -> str:
    f = schema.field(name)
    if f.kind is not FieldKind.LIST:
        raise ValidationFailed(f"Only list fields take '{operation}'; '{name}' is {f.kind.value}.", field=name)
    return name


def _removed(existing: list[str], items: tuple[str, ...]) -> list[str]:
    return [i for i in existing if not any(_same_item(i, r) for r in items)]


def _appended(existing: list[str], items: tuple[str, ...]) -> list[str]:
    for item in items:
        # Appending what is already there refreshes it: it moves to the newest end.
        existing = [i for i in existing if not _same_item(i, item)]
        existing.append(item)
    return existing


@dataclass(frozen=True, slots=True)
class Overflow:
    field: str
    items: tuple[str, ...]


def enforce_list_limits(schema: BlockSchema, values: BlockValues) -> tuple[dict[str, FieldValue], list[Overflow]]:
    """Cut lists to their ``maxItems``: the oldest items leave (to be archived), or the
    write is refused for fields whose overflow policy is ``reject``."""
    out = dict(values)
    overflow: list[Overflow] = []
    for f in schema.fields:
        items = values.get(f.name)
        if f.kind is not FieldKind.LIST or f.max_items is None or not isinstance(items, tuple):
            continue
        extra = len(items) - f.max_items
        if extra <= 0:
            continue
        if f.on_overflow == "reject":
            raise GuardrailViolation(
                "block_list_too_long",
                f"Field '{f.name}' holds at most {f.max_items} items; remove one before adding another.",
                field=f.name,
                maxItems=f.max_items,
            )
        overflow.append(Overflow(f.name, items[:extra]))
        out[f.name] = items[extra:]
    return out, overflow


def values_to_plain(values: BlockValues) -> dict[str, str | list[str]]:
    """JSON-ready values (lists instead of tuples)."""
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in values.items()}


# -- plain-dict form (stores, exports) -----------------------------------------------------


def block_to_dict(b: MemoryBlock) -> dict[str, Any]:
    return {
        "tenantId": b.tenant_id,
        "userId": b.user_id,
        "agentId": b.agent_id,
        "name": b.name,
        "values": values_to_plain(b.values),
        "version": b.version,
        "createdAt": ts(b.created_at),
        "updatedAt": ts(b.updated_at),
        "updatedBy": b.updated_by.as_dict(),
        "deleted": b.deleted,
        "threshold": b.threshold,
        "recentRotations": list(b.recent_rotations),
    }


def block_from_dict(d: Mapping[str, Any]) -> MemoryBlock:
    return MemoryBlock(
        tenant_id=d["tenantId"],
        user_id=d["userId"],
        agent_id=d["agentId"],
        name=d["name"],
        values={k: (tuple(v) if isinstance(v, list) else v) for k, v in d["values"].items()},
        version=int(d["version"]),
        created_at=parse_ts(d["createdAt"]),
        updated_at=parse_ts(d["updatedAt"]),
        updated_by=Actor(ActorType(d["updatedBy"]["type"]), d["updatedBy"]["id"]),
        deleted=bool(d.get("deleted", False)),
        threshold=d.get("threshold"),
        recent_rotations=tuple(bool(x) for x in d.get("recentRotations") or ()),
    )


def block_version_to_dict(v: BlockVersion) -> dict[str, Any]:
    return {
        "block": block_to_dict(v.block),
        "change": v.change.value,
        "actor": v.actor.as_dict(),
        "reason": v.reason,
        "at": ts(v.at),
        "archivedIds": list(v.archived_ids),
        "proposalId": v.proposal_id,
    }


def block_version_from_dict(d: Mapping[str, Any]) -> BlockVersion:
    return BlockVersion(
        block=block_from_dict(d["block"]),
        change=BlockChangeKind(d["change"]),
        actor=Actor(ActorType(d["actor"]["type"]), d["actor"]["id"]),
        reason=d.get("reason") or "",
        at=parse_ts(d["at"]),
        archived_ids=tuple(d.get("archivedIds") or ()),
        proposal_id=d.get("proposalId"),
    )


@dataclass(frozen=True, slots=True)
class CompletedTask:
    task: str
    context: tuple[str, ...]
    notes: str | None


def complete_task(
    schema: BlockSchema, values: BlockValues, notes: str | None, keep_context: bool
) -> tuple[dict[str, FieldValue], CompletedTask]:
    """The block after finishing its current task, and what to archive of it."""
    spec = schema.task
    if spec is None:
        raise ValidationFailed(f"Block '{schema.name}' has no task to complete.", block=schema.name)
    task = values.get(spec.task_field)
    if not isinstance(task, str):
        raise GuardrailViolation("no_current_task", f"Block '{schema.name}' has no current task.", block=schema.name)
    out = dict(values)
    out.pop(spec.task_field, None)
    context: tuple[str, ...] = ()
    if spec.context_field is not None:
        found = values.get(spec.context_field)
        context = found if isinstance(found, tuple) else ()
        if not keep_context:
            out.pop(spec.context_field, None)
    if spec.state_field is not None and spec.idle_state is not None:
        out[spec.state_field] = spec.idle_state
    clean = notes.strip() if notes else None
    return out, CompletedTask(task, context, clean or None)
