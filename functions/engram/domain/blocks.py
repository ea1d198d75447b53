"""Memory blocks (core memory, behaviour item 16): schemas, values, edits and presets.

A block is a small, named, structured document per (user, agent): the agent's
``persona``, what it knows of the ``human``, or a custom block whose schema an agent's
configuration defines. Schemas are configuration (pydantic, camelCase like the rest of
``AgentConfig``); values are plain mappings in a canonical form so that every
serialisation (compact, Markdown, TOML, JSON) round-trips exactly.

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
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

from engram.domain.errors import GuardrailViolation, ValidationFailed
from engram.domain.models import Actor, ActorType
from engram.domain.serialization import parse_ts, ts

FieldValue = str | tuple[str, ...]
BlockValues = Mapping[str, FieldValue]

NAME_PATTERN = r"^[a-z][a-z0-9_\-]{0,39}$"
FIELD_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"
DEFAULT_MAX_CHARS = 1500
# Tab and newline are text; every other control character is refused so that no format
# (TOML escapes, Markdown lines, prompts) can be confused by one.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class _CamelModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True)


class FieldKind(StrEnum):
    TEXT = "text"
    LIST = "list"
    CHOICE = "choice"


class BlockField(_CamelModel):
    name: str = Field(pattern=FIELD_PATTERN)
    kind: FieldKind = FieldKind.TEXT
    title: str | None = Field(None, min_length=1, max_length=80, description="Markdown heading; from the name.")
    tag: str | None = Field(None, pattern=r"^[A-Z][A-Z0-9_ ]{0,23}$", description="Compact tag; from the name.")
    description: str = Field("", max_length=500)
    max_items: int | None = Field(None, ge=1, le=200, description="List fields: most items kept in the block.")
    on_overflow: Literal["archive", "reject"] = Field(
        "archive", description="List fields: archive the oldest items beyond maxItems, or refuse the write."
    )
    max_item_chars: int = Field(500, ge=1, le=20_000)
    choices: tuple[str, ...] = ()
    default: str | None = Field(None, max_length=500)
    # How much the field is worth keeping in core memory when a block rotates (0-100).
    priority: int = Field(50, ge=0, le=100)
    item_separator: str = Field("; ", min_length=1, max_length=5)

    @property
    def heading(self) -> str:
        return self.title or self.name.replace("_", " ").capitalize()

    @property
    def compact_tag(self) -> str:
        return self.tag or self.name.upper()

    @model_validator(mode="after")
    def _consistent(self) -> BlockField:
        if self.kind is FieldKind.CHOICE:
            if not self.choices:
                raise ValueError(f"choice field '{self.name}' needs choices")
            if self.default is not None and self.default not in self.choices:
                raise ValueError(f"the default of '{self.name}' is not one of its choices")
        elif self.choices:
            raise ValueError(f"only choice fields take choices ('{self.name}')")
        if self.kind is FieldKind.LIST and self.default is not None:
            raise ValueError(f"list field '{self.name}' cannot have a default")
        if self.kind is not FieldKind.LIST and self.max_items is not None:
            raise ValueError(f"only list fields take maxItems ('{self.name}')")
        return self


class CompactLine(_CamelModel):
    """One line of the compact prompt form: ``[TAG] a | b`` joining several fields."""

    tag: str = Field(pattern=r"^[A-Z][A-Z0-9_ ]{0,23}$")
    fields: tuple[str, ...] = Field(min_length=1, max_length=10)
    separator: str = Field(" | ", min_length=1, max_length=5)


class TaskSpec(_CamelModel):
    """Which fields of a block hold the current task, its context and the session state."""

    task_field: str
    context_field: str | None = None
    state_field: str | None = None
    active_state: str | None = None
    idle_state: str | None = None


class BlockSchema(_CamelModel):
    name: str = Field(pattern=NAME_PATTERN)
    description: str = Field("", max_length=500)
    fields: tuple[BlockField, ...] = Field(min_length=1, max_length=40)
    lines: tuple[CompactLine, ...] = Field((), description="Compact layout; by default one line per field.")
    max_chars: int = Field(DEFAULT_MAX_CHARS, ge=100, le=100_000, description="Limit of the compact form.")
    task: TaskSpec | None = None

    @model_validator(mode="after")
    def _consistent(self) -> BlockSchema:
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"block '{self.name}' names a field twice")
        headings = [f.heading.casefold() for f in self.fields]
        if len(set(headings)) != len(headings):
            raise ValueError(f"block '{self.name}' has two fields with the same title")
        placed = [f for line in self.lines for f in line.fields]
        unknown = next(((line.tag, f) for line in self.lines for f in line.fields if f not in names), None)
        if unknown is not None:
            raise ValueError(f"compact line [{unknown[0]}] names unknown field '{unknown[1]}'")
        if len(set(placed)) != len(placed):
            raise ValueError("a field appears on two compact lines")
        if self.task is not None:
            _check_task(self.task, {f.name: f for f in self.fields})
        return self

    def field(self, name: str) -> BlockField:
        for f in self.fields:
            if f.name == name:
                return f
        raise ValidationFailed(
            f"Block '{self.name}' has no field '{name}'; its fields are {', '.join(self.field_names)}.",
            field=name,
        )

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def layout(self) -> tuple[CompactLine, ...]:
        """The compact lines: the configured ones, then one per field not placed yet."""
        placed = {f for line in self.lines for f in line.fields}
        rest = tuple(CompactLine(tag=f.compact_tag, fields=(f.name,)) for f in self.fields if f.name not in placed)
        return (*self.lines, *rest)


def _check_task(t: TaskSpec, fields: Mapping[str, BlockField]) -> None:
    """A task spec names fields of the right kinds, and states among the choices."""

    def kind_of(name: str | None) -> FieldKind | None:
        f = fields.get(name) if name is not None else None
        return None if f is None else f.kind

    if kind_of(t.task_field) is not FieldKind.TEXT:
        raise ValueError("task.taskField must name a text field")
    if t.context_field is not None and kind_of(t.context_field) is not FieldKind.LIST:
        raise ValueError("task.contextField must name a list field")
    if t.state_field is None:
        return
    if kind_of(t.state_field) is not FieldKind.CHOICE:
        raise ValueError("task.stateField must name a choice field")
    choices = fields[t.state_field].choices
    for s in (t.active_state, t.idle_state):
        if s is not None and s not in choices:
            raise ValueError(f"task state '{s}' is not a choice of '{t.state_field}'")


class RotationStrategy(StrEnum):
    AGGRESSIVE = "aggressive"
    PRESERVATIVE = "preservative"
    ADAPTIVE = "adaptive"


class MemoryBlocksConfig(_CamelModel):
    """The memory-block part of an agent's configuration."""

    schemas: tuple[BlockSchema, ...] = Field(
        (), max_length=20, description="Custom blocks; one named persona or human replaces the built-in one."
    )
    rotation: RotationStrategy = RotationStrategy.ADAPTIVE
    max_chars: int | None = Field(None, ge=100, le=100_000, description="Overrides every schema's maxChars.")

    @model_validator(mode="after")
    def _unique(self) -> MemoryBlocksConfig:
        names = [s.name for s in self.schemas]
        if len(set(names)) != len(names):
            raise ValueError("two block schemas share a name")
        return self


# -- built-in schemas and presets (the YouLab PersonaBlock and HumanBlock) ----------------

PERSONA_SCHEMA = BlockSchema(
    name="persona",
    description="Who the agent is: stable across sessions.",
    fields=(
        BlockField(name="name", default="Assistant", priority=100, max_item_chars=100),
        BlockField(name="role", priority=100, max_item_chars=200),
        # Enumerations read as "a, b, c" in prompts; constraints are sentences ("a; b").
        BlockField(
            name="capabilities",
            kind=FieldKind.LIST,
            max_items=5,
            on_overflow="reject",
            priority=80,
            item_separator=", ",
        ),
        BlockField(
            name="expertise", kind=FieldKind.LIST, max_items=4, on_overflow="reject", priority=70, item_separator=", "
        ),
        BlockField(name="tone", default="professional", priority=60, max_item_chars=60),
        BlockField(name="verbosity", default="concise", priority=60, max_item_chars=60),
        BlockField(name="constraints", kind=FieldKind.LIST, max_items=3, on_overflow="reject", priority=90),
    ),
    lines=(
        CompactLine(tag="IDENTITY", fields=("name", "role")),
        CompactLine(tag="CAPABILITIES", fields=("capabilities",)),
        CompactLine(tag="EXPERTISE", fields=("expertise",)),
        CompactLine(tag="STYLE", fields=("tone", "verbosity"), separator=", "),
        CompactLine(tag="CONSTRAINTS", fields=("constraints",)),
    ),
)
SESSION_STATES = ("idle", "active_task", "waiting_input", "thinking", "error_recovery")

HUMAN_SCHEMA = BlockSchema(
    name="human",
    description="What the agent knows of the user: dynamic, updated often.",
    fields=(
        BlockField(name="name", priority=95, max_item_chars=100),
        BlockField(name="role", priority=90, max_item_chars=200),
        BlockField(name="current_task", title="Current task", priority=100),
        BlockField(name="session_state", kind=FieldKind.CHOICE, choices=SESSION_STATES, default="idle", priority=100),
        BlockField(name="preferences", kind=FieldKind.LIST, max_items=4, priority=70),
        BlockField(name="facts", kind=FieldKind.LIST, max_items=3, priority=80),
        # The rolling window of recent context: the first to leave core memory.
        BlockField(name="context_notes", title="Context notes", kind=FieldKind.LIST, max_items=3, priority=40),
    ),
    lines=(
        CompactLine(tag="USER", fields=("name", "role")),
        CompactLine(tag="TASK", fields=("current_task",)),
        CompactLine(tag="STATE", fields=("session_state",)),
        CompactLine(tag="PREFS", fields=("preferences",)),
        CompactLine(tag="FACTS", fields=("facts",)),
        CompactLine(tag="CONTEXT", fields=("context_notes",)),
    ),
    task=TaskSpec(
        task_field="current_task",
        context_field="context_notes",
        state_field="session_state",
        active_state="active_task",
        idle_state="idle",
    ),
)

BUILTIN_SCHEMAS: dict[str, BlockSchema] = {s.name: s for s in (PERSONA_SCHEMA, HUMAN_SCHEMA)}

PERSONA_PRESETS: dict[str, dict[str, FieldValue]] = {
    "default": {
        "name": "Assistant",
        "role": "General-purpose AI assistant",
        "capabilities": ("Answer questions", "Help with tasks", "Explain concepts", "Summarise information"),
        "tone": "friendly",
        "verbosity": "adaptive",
    },
    "coding_assistant": {
        "name": "CodeHelper",
        "role": "Software development assistant",
        "capabilities": ("Write and review code", "Debug", "Explain code", "Suggest tests"),
        "expertise": ("Python", "JavaScript", "System design"),
        "tone": "professional",
        "verbosity": "detailed",
        "constraints": ("Include error handling", "Prefer readability"),
    },
    "research_assistant": {
        "name": "Researcher",
        "role": "Research and analysis assistant",
        "capabilities": ("Synthesise information", "Compare options", "Cite sources", "Find gaps"),
        "expertise": ("Research methodology", "Data analysis"),
        "tone": "professional",
        "verbosity": "detailed",
    },
}


def schemas_for(config: MemoryBlocksConfig) -> dict[str, BlockSchema]:
    """Every block an agent can hold: the built-ins, replaced or extended by its config."""
    out = dict(BUILTIN_SCHEMAS)
    out.update({s.name: s for s in config.schemas})
    if config.max_chars is not None:
        out = {n: s.model_copy(update={"max_chars": config.max_chars}) for n, s in out.items()}
    return out


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
        text = _text_value(f, value)
        if text is None:
            text = f.default
        if text is None:
            continue
        if f.kind is FieldKind.CHOICE and text not in f.choices:
            raise ValidationFailed(
                f"Field '{f.name}' must be one of {', '.join(f.choices)}.", field=f.name, choices=list(f.choices)
            )
        out[f.name] = text
    return out


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
    items: list[str] = []
    for item in value:
        if not isinstance(item, str):
            raise ValidationFailed(f"Field '{f.name}' takes a list of text items.", field=f.name)
        text = item.strip()
        if not text:
            continue
        if "\n" in text or "\r" in text or _CONTROL.search(text):
            raise ValidationFailed(f"Items of '{f.name}' are single lines of text.", field=f.name)
        if len(text) > f.max_item_chars:
            raise GuardrailViolation(
                "block_field_too_long",
                f"An item of '{f.name}' has {len(text)} characters; items take at most {f.max_item_chars}.",
                field=f.name,
                maxChars=f.max_item_chars,
            )
        items.append(text)
    return tuple(items)


def _same_item(a: str, b: str) -> bool:
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def apply_edit(schema: BlockSchema, values: BlockValues, edit: BlockEdit) -> dict[str, FieldValue]:
    """The canonical values after ``edit`` (pure; limits are the write's business)."""
    if edit.replace is not None:
        result = canonical(schema, edit.replace)
    else:
        current: dict[str, Any] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in values.items()}
        for name, value in edit.set.items():
            schema.field(name)
            current[name] = value
        for name, items in edit.remove.items():
            kept = [i for i in current.get(name) or [] if not any(_same_item(i, r) for r in items)]
            current[_list_field(schema, name, "remove")] = kept
        for name, items in edit.append.items():
            current[_list_field(schema, name, "append")] = _appended(list(current.get(name) or []), items)
        result = canonical(schema, current)
    task = schema.task
    if task is not None and task.state_field is not None and task.active_state is not None:
        set_task = edit.replace is None and task.task_field in edit.set and result.get(task.task_field)
        if set_task and task.state_field not in edit.set:
            # Setting a task means working on it (YouLab's set_task).
            result[task.state_field] = task.active_state
    return result


def _list_field(schema: BlockSchema, name: str, operation: str) -> str:
    f = schema.field(name)
    if f.kind is not FieldKind.LIST:
        raise ValidationFailed(f"Only list fields take '{operation}'; '{name}' is {f.kind.value}.", field=name)
    return name


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
