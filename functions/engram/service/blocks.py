"""Memory blocks: read, edit, rotate into archival memory, version and restore
(behaviour items 10 and 16).

Every change is one atomic commit of the new block version, its history record and the
archival records it moved out, conditional on the version it was computed from; a
concurrent change makes the edit re-apply on the newer version (or, when the caller named
the version it edited, fail with ``version_conflict``).

Who acts: an admin key is the user's console, so its changes are the user's; a writer
key is its agent, whose changes need the user's approval when the agent's configuration
says so (``requireApproval`` with ``block:<name>`` or ``block:*``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal, Protocol

from engram.domain.agent_config import AgentConfig
from engram.domain.archival import ArchivalRecord, new_archival_id
from engram.domain.block_commit import BlockCommitRequest, has_operations, plan_commit
from engram.domain.block_format import from_json, from_markdown, from_toml
from engram.domain.block_schema import PERSONA_PRESETS, BlockField, BlockSchema, FieldKind, FieldValue, schemas_for
from engram.domain.blocks import (
    BlockChangeKind,
    BlockEdit,
    BlockVersion,
    MemoryBlock,
    apply_edit,
    block_to_dict,
    block_version_to_dict,
    complete_task,
    edit_texts,
    enforce_list_limits,
    values_to_plain,
)
from engram.domain.errors import Forbidden, NotFound, ValidationFailed, VersionConflict
from engram.domain.models import Actor, ActorType, Page, Principal, Role
from engram.domain.policies import require_role
from engram.domain.proposals import BLOCK_PREFIX, Proposal, needs_approval
from engram.domain.sensitive import reject_sensitive
from engram.ports import BlockRepository, Clock
from engram.service.agents import AgentConfigService
from engram.service.archival import ArchivalService
from engram.service.memory import MemoryService
from engram.service.retry import retry_on_conflict

MAX_ATTEMPTS = 50


@dataclass(frozen=True, slots=True)
class BlockWriteResult:
    schema: BlockSchema
    # The block after the change; for a proposal, the block as it still is (or None).
    block: MemoryBlock | None
    archived: tuple[ArchivalRecord, ...] = ()
    changed: bool = True
    proposal: Proposal | None = None


class BlockProposer(Protocol):
    def propose_block(
        self, principal: Principal, user_id: str, block: str, edit: BlockEdit, reason: str
    ) -> Proposal: ...


@dataclass
class BlockService:
    repo: BlockRepository
    memory: MemoryService
    agents: AgentConfigService
    archival: ArchivalService
    clock: Clock
    proposer: BlockProposer | None = None

    # -- schemas ----------------------------------------------------------------------------
    def schemas(self, principal: Principal, agent_id: str | None = None) -> dict[str, BlockSchema]:
        require_role(principal, Role.VIEWER)
        agent = self._agent(principal, agent_id)
        return schemas_for(self.agents.get(principal.tenant_id, agent).memory_blocks)

    def schema(self, tenant_id: str, agent_id: str, name: str) -> BlockSchema:
        known = schemas_for(self.agents.get(tenant_id, agent_id).memory_blocks)
        found = known.get(name)
        if found is None:
            raise NotFound(
                f"This agent has no block '{name}'; its blocks are {', '.join(sorted(known))}.",
                block=name,
            )
        return found

    def _schema_of(self, block: MemoryBlock) -> BlockSchema:
        known = schemas_for(self.agents.get(block.tenant_id, block.agent_id).memory_blocks)
        return known.get(block.name) or _derived_schema(block.name, block.values)

    # -- reads ------------------------------------------------------------------------------
    def get(
        self, principal: Principal, user_id: str, name: str, agent_id: str | None = None
    ) -> tuple[MemoryBlock, BlockSchema]:
        require_role(principal, Role.VIEWER)
        # Blocks are core memory: memory off closes them to agents (the read policy).
        self.memory.gate.policy(principal, user_id).require_readable()
        agent = self._agent(principal, agent_id)
        block = self.repo.get_block(principal.tenant_id, user_id, agent, name)
        if block is None or block.deleted:
            raise NotFound(
                f"This user has no block '{name}' for agent '{agent}' yet; write one with PUT.",
                block=name,
                agentId=agent,
            )
        return block, self._schema_of(block)

    def list_blocks(
        self, principal: Principal, user_id: str, agent_id: str | None = None
    ) -> list[tuple[MemoryBlock, BlockSchema]]:
        """The caller's blocks of the user; an admin without ``agent_id`` sees every agent's."""
        require_role(principal, Role.VIEWER)
        if not self.memory.gate.policy(principal, user_id).memory_readable:
            return []
        agent = None if agent_id is None and principal.is_admin else self._agent(principal, agent_id)
        blocks = self.repo.list_blocks(principal.tenant_id, user_id, agent)
        return [(b, self._schema_of(b)) for b in blocks if not b.deleted]

    def history(
        self,
        principal: Principal,
        user_id: str,
        name: str,
        agent_id: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[BlockVersion]:
        require_role(principal, Role.VIEWER)
        self.memory.gate.policy(principal, user_id).require_readable()
        agent = self._agent(principal, agent_id)
        page = self.repo.block_history(principal.tenant_id, user_id, agent, name, limit, cursor)
        if not page.items and cursor is None:
            raise NotFound(f"This user has no block '{name}' for agent '{agent}'.", block=name, agentId=agent)
        return page

    # -- writes -----------------------------------------------------------------------------
    def write(
        self,
        principal: Principal,
        user_id: str,
        name: str,
        edit: BlockEdit,
        *,
        agent_id: str | None = None,
        expected_version: int | None = None,
        reason: str = "",
    ) -> BlockWriteResult:
        """Apply ``edit`` (or propose it, for an agent that needs approval)."""
        require_role(principal, Role.WRITER)
        if edit.is_empty():
            raise ValidationFailed("The edit changes nothing: give replace, set, append, remove or completeTask.")
        # Before it can become a proposal; the reason is kept in the block's history too.
        reject_sensitive([*edit_texts(edit), ("reason", reason)], "block change")
        t = principal.tenant_id
        agent = self._agent(principal, agent_id)
        config = self.agents.get(t, agent)
        schema = self.schema(t, agent, name)
        if self._needs_approval(principal, agent, name):
            if self.proposer is None:
                raise Forbidden("This agent's block changes need the user's approval; approvals are unavailable.")
            proposal = self.proposer.propose_block(principal, user_id, name, edit, reason)
            current = self.repo.get_block(t, user_id, agent, name)
            live = None if current is None or current.deleted else current
            return BlockWriteResult(schema, live, (), False, proposal)
        return self._commit(
            t,
            user_id,
            agent,
            schema,
            config,
            edit,
            self._actor(principal, user_id),
            reason or "edited",
            expected_version,
        )

    def write_document(
        self,
        principal: Principal,
        user_id: str,
        name: str,
        fmt: Literal["markdown", "toml", "json"],
        text: str,
        *,
        agent_id: str | None = None,
        expected_version: int | None = None,
        reason: str = "",
    ) -> BlockWriteResult:
        """Replace the block with a document someone edited. Markdown front matter may name
        the version it was made from; a block changed since then is a ``version_conflict``."""
        require_role(principal, Role.WRITER)
        schema = self.schema(principal.tenant_id, self._agent(principal, agent_id), name)
        if fmt == "markdown":
            values, version = from_markdown(schema, text)
            expected_version = version if expected_version is None else expected_version
        elif fmt == "toml":
            values = from_toml(schema, text)
        else:
            values = from_json(schema, text)
        return self.write(
            principal,
            user_id,
            name,
            BlockEdit(replace=values_to_plain(values)),
            agent_id=agent_id,
            expected_version=expected_version,
            reason=reason or f"edited as {fmt}",
        )

    def apply_preset(
        self, principal: Principal, user_id: str, name: str, preset: str, *, agent_id: str | None = None
    ) -> BlockWriteResult:
        values = PERSONA_PRESETS.get(preset)
        if values is None:
            raise ValidationFailed(
                f"There is no preset '{preset}'; the presets are {', '.join(sorted(PERSONA_PRESETS))}.",
                field="preset",
            )
        return self.write(
            principal,
            user_id,
            name,
            BlockEdit(replace=values_to_plain(values)),
            agent_id=agent_id,
            reason=f"preset {preset}",
        )

    def preview(
        self, principal: Principal, user_id: str, name: str, edit: BlockEdit
    ) -> tuple[BlockSchema, MemoryBlock | None, dict[str, FieldValue]]:
        """The calling agent's block as it is and as ``edit`` would leave it (before limits
        and rotation, which apply when the change is made)."""
        schema = self.schema(principal.tenant_id, principal.agent_id, name)
        current = self.repo.get_block(principal.tenant_id, user_id, principal.agent_id, name)
        live = None if current is None or current.deleted else current
        base: Mapping[str, FieldValue] = live.values if live else {}
        if edit.complete_task:
            base, _ = complete_task(schema, base, edit.task_notes, edit.keep_context)
        after = apply_edit(schema, base, edit) if has_operations(edit) else dict(base)
        enforce_list_limits(schema, after)  # a change that can never apply is refused now
        return schema, live, after

    def apply_proposal(self, proposal: Proposal, edit: BlockEdit, name: str, actor: Actor) -> BlockWriteResult:
        """Make an approved proposal's change, once: a retried approval finds its version."""
        t, u, agent = proposal.tenant_id, proposal.user_id, proposal.agent_id
        schema = self.schema(t, agent, name)
        current = self.repo.get_block(t, u, agent, name)
        if current is not None:
            last = self.repo.block_version(t, u, agent, name, current.version)
            if last is not None and last.proposal_id == proposal.id:
                return BlockWriteResult(schema, current, (), False)
        return self._commit(
            t,
            u,
            agent,
            schema,
            self.agents.get(t, agent),
            edit,
            actor,
            f"approved proposal {proposal.id}",
            None,
            proposal_id=proposal.id,
        )

    def restore(
        self, principal: Principal, user_id: str, name: str, version: int, agent_id: str | None = None
    ) -> BlockWriteResult:
        """Write an earlier version's content as a new version."""
        require_role(principal, Role.WRITER)
        t = principal.tenant_id
        agent = self._agent(principal, agent_id)
        old = self.repo.block_version(t, user_id, agent, name, version)
        if old is None:
            raise NotFound(f"Block '{name}' has no version {version}.", block=name, version=version)
        if old.block.deleted:
            raise ValidationFailed(f"Version {version} is the block's deletion; restore a version before it.")
        edit = BlockEdit(replace=values_to_plain(old.block.values))
        if self._needs_approval(principal, agent, name):
            return self.write(principal, user_id, name, edit, agent_id=agent_id, reason=f"restore of version {version}")
        return self._commit(
            t,
            user_id,
            agent,
            self.schema(t, agent, name),
            self.agents.get(t, agent),
            edit,
            self._actor(principal, user_id),
            f"restore of version {version}",
            None,
            kind=BlockChangeKind.RESTORED,
        )

    def delete(self, principal: Principal, user_id: str, name: str, agent_id: str | None = None) -> BlockVersion:
        """Empty the block (its history keeps every version, so it can be restored)."""
        require_role(principal, Role.WRITER)
        t = principal.tenant_id
        agent = self._agent(principal, agent_id)
        if self._needs_approval(principal, agent, name):
            raise Forbidden(
                "This agent's block changes need the user's approval: propose an edit that empties the block, "
                "or ask the user to delete it.",
                block=name,
            )
        actor = self._actor(principal, user_id)

        def attempt() -> BlockVersion:
            current = self.repo.get_block(t, user_id, agent, name)
            if current is None or current.deleted:
                raise NotFound(f"This user has no block '{name}' for agent '{agent}'.", block=name, agentId=agent)
            now = self.clock.now()
            gone = MemoryBlock(
                t, user_id, agent, name, {}, current.version + 1, current.created_at, now, actor, deleted=True
            )
            record = BlockVersion(gone, BlockChangeKind.DELETED, actor, "deleted on request", now)
            self.repo.commit_block(record, current.version)
            return record

        return retry_on_conflict(
            attempt, attempts=MAX_ATTEMPTS, exhausted="Too many concurrent changes to this block; retry later."
        )

    # -- the one write path ---------------------------------------------------------------------
    def _commit(
        self,
        tenant_id: str,
        user_id: str,
        agent_id: str,
        schema: BlockSchema,
        config: AgentConfig,
        edit: BlockEdit,
        actor: Actor,
        reason: str,
        expected_version: int | None,
        *,
        kind: BlockChangeKind | None = None,
        proposal_id: str | None = None,
    ) -> BlockWriteResult:
        settings = self.memory.check_settings(tenant_id, user_id)
        # Every block change ends here (edits, presets, restores, approvals): the filter
        # may have tightened since a version or a proposal was made.
        reject_sensitive([*edit_texts(edit), ("reason", reason)], "block change")

        def attempt() -> BlockWriteResult:
            current = self.repo.get_block(tenant_id, user_id, agent_id, schema.name)
            stored = 0 if current is None else current.version
            if expected_version is not None and stored != expected_version:
                raise VersionConflict(
                    f"Block '{schema.name}' is at version {stored}, not {expected_version}: it changed since it "
                    "was read. Read it again and redo the edit.",
                    block=schema.name,
                    expected=expected_version,
                    found=stored,
                )
            request = BlockCommitRequest(
                tenant_id,
                user_id,
                agent_id,
                schema,
                edit,
                config.memory_blocks.rotation,
                actor,
                reason,
                self.clock.now(),
                None if settings.retention_days is None else timedelta(days=settings.retention_days),
                kind,
                proposal_id,
            )
            plan = plan_commit(current, request, new_archival_id)
            if plan is None:
                assert current is not None  # only an unchanged live block plans nothing
                return BlockWriteResult(schema, current, (), False)
            self.repo.commit_block(plan.version, None if current is None else current.version, list(plan.archived))
            if plan.archived:
                self.archival.index_records(tenant_id, user_id, list(plan.archived))
            return BlockWriteResult(schema, plan.block, plan.archived)

        # A caller that named its version must see the conflict, not a silent re-apply.
        attempts = 1 if expected_version is not None else MAX_ATTEMPTS
        return retry_on_conflict(
            attempt, attempts=attempts, exhausted="Too many concurrent changes to this block; retry later."
        )

    # -- export ---------------------------------------------------------------------------------
    def export(self, tenant_id: str, user_id: str) -> dict[str, Any]:
        return {
            "current": [block_to_dict(b) for b in self.repo.list_blocks(tenant_id, user_id)],
            "history": [block_version_to_dict(v) for v in self.repo.block_history_of_user(tenant_id, user_id)],
        }

    # -- who ------------------------------------------------------------------------------------
    def _needs_approval(self, principal: Principal, agent: str, name: str) -> bool:
        """An agent's change to a block the user must approve (the console's never)."""
        if principal.is_admin:
            return False
        return needs_approval(self.agents.get(principal.tenant_id, agent).require_approval, BLOCK_PREFIX + name)

    @staticmethod
    def _agent(principal: Principal, agent_id: str | None) -> str:
        if agent_id is not None and agent_id != principal.agent_id and not principal.is_admin:
            raise Forbidden("Only an admin key may reach another agent's blocks.", agentId=agent_id)
        return agent_id or principal.agent_id

    @staticmethod
    def _actor(principal: Principal, user_id: str) -> Actor:
        return Actor(ActorType.USER, user_id) if principal.is_admin else Actor(ActorType.AGENT, principal.agent_id)


def _derived_schema(name: str, values: Mapping[str, FieldValue]) -> BlockSchema:
    """A schema for a block whose configured one was removed: its fields as they are."""
    fields = tuple(
        BlockField(name=k, kind=FieldKind.LIST if isinstance(v, tuple) else FieldKind.TEXT, max_item_chars=20_000)
        for k, v in values.items()
    ) or (BlockField(name="text"),)
    return BlockSchema(name=name, fields=fields, max_chars=100_000)
