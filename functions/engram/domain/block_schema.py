"""Memory block schemas (behaviour item 16): the fields a block has, their kinds and limits,
and the built-in schemas and presets (the YouLab PersonaBlock and HumanBlock).

Schemas are configuration (pydantic, camelCase like the rest of ``AgentConfig``); the
values a block holds, the edits to them and their stored form are in ``blocks``.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

from engram.domain.errors import ValidationFailed

FieldValue = str | tuple[str, ...]
BlockValues = Mapping[str, FieldValue]

NAME_PATTERN = r"^[a-z][a-z0-9_\-]{0,39}$"
FIELD_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"
DEFAULT_MAX_CHARS = 1500


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
        _check_lines(self.lines, names)
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


def _check_lines(lines: tuple[CompactLine, ...], names: list[str]) -> None:
    """Every compact line names known fields, and no field is on two lines."""
    unknown = next(((line.tag, f) for line in lines for f in line.fields if f not in names), None)
    if unknown is not None:
        raise ValueError(f"compact line [{unknown[0]}] names unknown field '{unknown[1]}'")
    placed = [f for line in lines for f in line.fields]
    if len(set(placed)) != len(placed):
        raise ValueError("a field appears on two compact lines")


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
