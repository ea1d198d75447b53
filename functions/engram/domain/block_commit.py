"""What one edit does to a memory block: the pure plan the block service commits.

Given the block as stored and an edit, ``plan_commit`` decides the new values, what
leaves the block for archival memory (a completed task, list overflow, rotation), the
adaptive threshold, and the kind of change, without reading or writing anything. The
service only loads, commits conditionally on the version, and retries on conflict.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from engram.domain.archival import ArchivalKind, ArchivalRecord, ArchivedItem
from engram.domain.block_schema import BlockSchema, FieldValue, RotationStrategy
from engram.domain.blocks import (
    BlockChangeKind,
    BlockEdit,
    BlockVersion,
    CompletedTask,
    MemoryBlock,
    apply_edit,
    complete_task,
    enforce_list_limits,
)
from engram.domain.models import Actor
from engram.domain.rotation import RotatedItem, RotationPlan, adapt, archive_text, plan_rotation, task_text


@dataclass(frozen=True, slots=True)
class BlockCommitRequest:
    """Everything a commit is computed from, besides the stored block."""

    tenant_id: str
    user_id: str
    agent_id: str
    schema: BlockSchema
    edit: BlockEdit
    strategy: RotationStrategy
    actor: Actor
    reason: str
    now: datetime
    retention: timedelta | None = None
    kind: BlockChangeKind | None = None
    proposal_id: str | None = None


@dataclass(frozen=True, slots=True)
class BlockCommitPlan:
    """The version to write and the archival records that leave the block with it."""

    version: BlockVersion
    archived: tuple[ArchivalRecord, ...]

    @property
    def block(self) -> MemoryBlock:
        return self.version.block


def plan_commit(
    current: MemoryBlock | None, request: BlockCommitRequest, new_id: Callable[[], str]
) -> BlockCommitPlan | None:
    """The commit ``request`` makes over ``current``; None when it changes nothing.

    ``current`` is the stored block, deleted or not (a deleted block's version still
    counts, so its successor continues the history).
    """
    live = None if current is None or current.deleted else current
    schema, edit = request.schema, request.edit
    base: Mapping[str, FieldValue] = live.values if live else {}
    done = None
    if edit.complete_task:
        base, done = complete_task(schema, base, edit.task_notes, edit.keep_context)
    values = apply_edit(schema, base, edit) if has_operations(edit) else dict(base)
    values, overflow = enforce_list_limits(schema, values)
    rotation = plan_rotation(schema, values, request.strategy, live.threshold if live else None)
    version = 1 if current is None else current.version + 1
    moved = [RotatedItem(o.field, item) for o in overflow for item in o.items] + list(rotation.rotated)
    archived = _archived(request, done, moved, rotation, version, new_id)
    if live is not None and dict(live.values) == rotation.values and not archived and request.kind is None:
        return None
    threshold, recent = _adaptive_state(request.strategy, live, rotation)
    block = MemoryBlock(
        request.tenant_id,
        request.user_id,
        request.agent_id,
        schema.name,
        rotation.values,
        version,
        current.created_at if current is not None else request.now,
        request.now,
        request.actor,
        threshold=threshold,
        recent_rotations=recent,
    )
    change = request.kind or _change_kind(live, done, archived)
    record = BlockVersion(
        block, change, request.actor, request.reason, request.now, tuple(r.id for r in archived), request.proposal_id
    )
    return BlockCommitPlan(record, archived)


def has_operations(edit: BlockEdit) -> bool:
    return edit.replace is not None or bool(edit.set or edit.append or edit.remove)


def _change_kind(
    live: MemoryBlock | None, done: CompletedTask | None, archived: tuple[ArchivalRecord, ...]
) -> BlockChangeKind:
    if done is not None:
        return BlockChangeKind.TASK_COMPLETED
    if live is None:
        return BlockChangeKind.CREATED
    return BlockChangeKind.ROTATED if archived else BlockChangeKind.UPDATED


def _adaptive_state(
    strategy: RotationStrategy, live: MemoryBlock | None, rotation: RotationPlan
) -> tuple[float | None, tuple[bool, ...]]:
    if strategy is not RotationStrategy.ADAPTIVE:
        return None, ()
    return adapt(live.threshold if live else None, live.recent_rotations if live else (), rotation.happened)


def _archived(
    request: BlockCommitRequest,
    done: CompletedTask | None,
    moved: list[RotatedItem],
    rotation: RotationPlan,
    version: int,
    new_id: Callable[[], str],
) -> tuple[ArchivalRecord, ...]:
    schema, now = request.schema, request.now
    expires = None if request.retention is None else now + request.retention
    records: list[ArchivalRecord] = []
    if done is not None:
        text = task_text(done.task, done.context, now, done.notes)
        items = tuple(ArchivedItem(f, v) for f, v in task_items(schema, done))
        records.append(_record(request, new_id(), ArchivalKind.TASK, text, items, version, expires))
    if moved:
        kind = ArchivalKind.ROTATION if rotation.happened else ArchivalKind.OVERFLOW
        text = archive_text(schema, moved, now, rotation.values)
        items = tuple(ArchivedItem(m.field, m.value) for m in moved)
        records.append(_record(request, new_id(), kind, text, items, version, expires))
    return tuple(records)


def _record(
    request: BlockCommitRequest,
    record_id: str,
    kind: ArchivalKind,
    text: str,
    items: tuple[ArchivedItem, ...],
    version: int,
    expires: datetime | None,
) -> ArchivalRecord:
    r = request
    return ArchivalRecord(
        record_id, r.tenant_id, r.user_id, r.agent_id, r.schema.name, kind, text, items, r.now, version, expires
    )


def task_items(schema: BlockSchema, done: CompletedTask) -> list[tuple[str, str]]:
    """The fields of a completed task as archived items: the task, its context, notes."""
    spec = schema.task
    if spec is None:  # complete_task refuses a schema without one
        raise ValueError(f"block '{schema.name}' has no task")
    items = [(spec.task_field, done.task)]
    if spec.context_field is not None:
        items += [(spec.context_field, c) for c in done.context]
    if done.notes:
        items.append(("notes", done.notes))
    return items
