"""Memory blocks (core memory): named, structured, size-limited blocks per user and agent,
versioned, rotating into archival memory; readable and editable as Markdown or TOML.

A writer key reaches its own agent's blocks; an admin key (the user's console) names the
agent with ``agentId`` and its changes are recorded as the user's.
"""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.openapi.params import Path, Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from engram.api.control_schemas import (
    ArchivalView,
    BlockEditRequest,
    BlockHistoryPage,
    BlockList,
    BlockRestore,
    BlockText,
    BlockVersionView,
    BlockView,
    BlockWrite,
    BlockWriteOutcome,
    PresetList,
    SchemaList,
    block_edit,
    proposal_view,
)
from engram.api.deps import Cursor, Limit, UserId, context, new_router
from engram.api.responses import errors
from engram.api.schemas import ID_PATTERN
from engram.container import Engram
from engram.domain.block_format import to_compact, to_json, to_markdown, to_toml
from engram.domain.block_schema import NAME_PATTERN, PERSONA_PRESETS
from engram.domain.blocks import BlockEdit, values_to_plain
from engram.domain.models import Principal
from engram.service.blocks import BlockWriteResult

router = new_router()
TAG = ["blocks"]

BlockName = Annotated[str, Path(pattern=NAME_PATTERN, description="persona, human, or a configured block.")]
AgentId = Annotated[
    str | None, Query(pattern=ID_PATTERN, description="Whose block (admin); the calling agent's by default.")
]
Format = Annotated[Literal["markdown", "toml", "json", "compact"], Query(description="The form to render.")]
PROPOSED: dict[int, OpenAPIResponse] = {
    202: {
        "description": "The agent needs the user's approval: nothing changed, a proposal is pending.",
        "content": {"application/json": {"model": BlockWriteOutcome}},
    }
}


def _view(engram: Engram, r: BlockWriteResult, principal: Principal) -> Response[BlockWriteOutcome]:
    block = None
    if r.block is not None:
        rotation = engram.agents.get(principal.tenant_id, r.block.agent_id).memory_blocks.rotation.value
        block = BlockView.of(r.block, r.schema, rotation)
    body = BlockWriteOutcome(
        block=block,
        changed=r.changed,
        archived=[ArchivalView.of(a) for a in r.archived],
        proposal=None if r.proposal is None else proposal_view(r.proposal, engram.clock.now()),
    )
    return Response(
        status_code=202 if r.proposal is not None else 200,
        content_type=content_types.APPLICATION_JSON,
        body=body,
    )


@router.get("/block-schemas", summary="The blocks an agent can hold, with their fields", tags=TAG, responses=errors())
def list_schemas(agentId: AgentId = None) -> SchemaList:
    engram, principal = context(router)
    return SchemaList(items=list(engram.blocks.schemas(principal, agentId).values()))


@router.get("/block-presets", summary="Preset persona blocks", tags=TAG, responses=errors())
def list_presets() -> PresetList:
    context(router)  # authenticated like every other route
    return PresetList(presets={name: values_to_plain(v) for name, v in PERSONA_PRESETS.items()})


@router.get("/users/<userId>/blocks", summary="The user's memory blocks", tags=TAG, responses=errors())
def list_blocks(userId: UserId, agentId: AgentId = None) -> BlockList:
    engram, principal = context(router)
    out = []
    for b, schema in engram.blocks.list_blocks(principal, userId, agentId):
        rotation = engram.agents.get(principal.tenant_id, b.agent_id).memory_blocks.rotation.value
        out.append(BlockView.of(b, schema, rotation))
    return BlockList(items=out)


@router.get("/users/<userId>/blocks/<name>", summary="One memory block", tags=TAG, responses=errors())
def get_block(userId: UserId, name: BlockName, agentId: AgentId = None) -> BlockView:
    engram, principal = context(router)
    b, schema = engram.blocks.get(principal, userId, name, agentId)
    return BlockView.of(b, schema, engram.agents.get(principal.tenant_id, b.agent_id).memory_blocks.rotation.value)


@router.get(
    "/users/<userId>/blocks/<name>/text",
    summary="The block as Markdown (for people), TOML or JSON (for machines), or compact (for prompts)",
    tags=TAG,
    responses=errors(),
)
def block_text(userId: UserId, name: BlockName, format: Format = "markdown", agentId: AgentId = None) -> BlockText:
    engram, principal = context(router)
    b, schema = engram.blocks.get(principal, userId, name, agentId)
    if format == "markdown":
        content = to_markdown(schema, b.values, b.version)
    elif format == "toml":
        content = to_toml(b.values)
    elif format == "json":
        content = to_json(b.values)
    else:
        content = to_compact(schema, b.values)
    return BlockText(format=format, version=b.version, content=content)


@router.put(
    "/users/<userId>/blocks/<name>",
    summary="Write the whole block: values, Markdown, TOML or a preset",
    description=(
        "Limits apply: an over-long list archives its oldest items (or is refused, per field), "
        "and a block past its rotation threshold moves its lowest-value items to archival memory. "
        "Markdown front matter 'version: N' (or expectedVersion) makes the write fail with 409 "
        "if the block changed since it was read."
    ),
    tags=TAG,
    responses={**errors(409), **PROPOSED},
)
def put_block(
    userId: UserId, name: BlockName, body: BlockWrite, agentId: AgentId = None
) -> Response[BlockWriteOutcome]:
    engram, principal = context(router)
    if body.preset is not None:
        preset = engram.blocks.apply_preset(principal, userId, name, body.preset, agent_id=agentId)
        return _view(engram, preset, principal)
    if body.markdown is not None or body.toml is not None:
        fmt: Literal["markdown", "toml"] = "markdown" if body.markdown is not None else "toml"
        result = engram.blocks.write_document(
            principal,
            userId,
            name,
            fmt,
            body.markdown if body.markdown is not None else body.toml or "",
            agent_id=agentId,
            expected_version=body.expected_version,
            reason=body.reason,
        )
    else:
        result = engram.blocks.write(
            principal,
            userId,
            name,
            BlockEdit(replace=dict(body.values or {})),
            agent_id=agentId,
            expected_version=body.expected_version,
            reason=body.reason,
        )
    return _view(engram, result, principal)


@router.patch(
    "/users/<userId>/blocks/<name>",
    summary="Edit fields: set, append, remove, or complete the current task",
    description="completeTask archives the task with its context notes, then the block goes idle.",
    tags=TAG,
    responses={**errors(409), **PROPOSED},
)
def patch_block(
    userId: UserId, name: BlockName, body: BlockEditRequest, agentId: AgentId = None
) -> Response[BlockWriteOutcome]:
    engram, principal = context(router)
    result = engram.blocks.write(
        principal,
        userId,
        name,
        block_edit(body),
        agent_id=agentId,
        expected_version=body.expected_version,
        reason=body.reason,
    )
    return _view(engram, result, principal)


@router.delete(
    "/users/<userId>/blocks/<name>",
    summary="Delete the block (its history keeps every version; restore brings it back)",
    tags=TAG,
    responses=errors(409),
)
def delete_block(userId: UserId, name: BlockName, agentId: AgentId = None) -> BlockVersionView:
    engram, principal = context(router)
    return BlockVersionView.of(engram.blocks.delete(principal, userId, name, agentId))


@router.get(
    "/users/<userId>/blocks/<name>/history",
    summary="Every version of the block, oldest first",
    tags=TAG,
    responses=errors(),
)
def block_history(
    userId: UserId, name: BlockName, agentId: AgentId = None, limit: Limit = 100, cursor: Cursor = None
) -> BlockHistoryPage:
    engram, principal = context(router)
    page = engram.blocks.history(principal, userId, name, agentId, limit, cursor)
    return BlockHistoryPage(items=[BlockVersionView.of(v) for v in page.items], next_cursor=page.next_cursor)


@router.post(
    "/users/<userId>/blocks/<name>/restore",
    summary="Restore an earlier version (written as a new version)",
    tags=TAG,
    responses={**errors(409), **PROPOSED},
)
def restore_block(
    userId: UserId, name: BlockName, body: BlockRestore, agentId: AgentId = None
) -> Response[BlockWriteOutcome]:
    engram, principal = context(router)
    return _view(engram, engram.blocks.restore(principal, userId, name, body.version, agentId), principal)
