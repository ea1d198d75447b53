"""The user's privacy controls: "what do you remember about me?" and "forget that"."""

from __future__ import annotations

from engram.api.control_schemas import BlockView, ForgetRequest, ForgetResponse, Remembered
from engram.api.deps import UserId, context, new_router
from engram.api.responses import errors
from engram.api.schemas import Entry
from engram.container import Engram
from engram.service.privacy_controls import PrivacyControls

router = new_router()
TAG = ["privacy"]


def _controls(engram: Engram) -> PrivacyControls:
    return PrivacyControls(engram.memory, engram.blocks, engram.archival, engram.proposals)


@router.get(
    "/users/<userId>/remembered",
    summary="What do you remember about me? Everything this key sees, by category",
    tags=TAG,
    responses=errors(),
)
def remembered(userId: UserId) -> Remembered:
    engram, principal = context(router)
    view = _controls(engram).remembered(principal, userId)
    return Remembered(
        user_id=userId,
        memory_enabled=view.settings.memory_enabled,
        categories={c: [Entry.of(e) for e in entries] for c, entries in view.by_category.items()},
        counts={c: len(entries) for c, entries in view.by_category.items()},
        blocks=[
            BlockView.of(b, s, engram.agents.get(principal.tenant_id, b.agent_id).memory_blocks.rotation.value)
            for b, s in view.blocks
        ],
        archival_count=view.archival_count,
        pending_proposals=view.pending_proposals,
        truncated=view.truncated,
    )


@router.post(
    "/users/<userId>/forget",
    summary="Forget memories by id, by key or by category, and archival records by id",
    description=(
        "By id: any memory this key sees. By key or category: the caller's own and global memories "
        "(an admin key: all of the user's). Forgotten memories leave every read and the search "
        "index; their history keeps the deletion. Erase the user for a full removal."
    ),
    tags=TAG,
    responses=errors(409),
)
def forget(userId: UserId, body: ForgetRequest) -> ForgetResponse:
    engram, principal = context(router)
    done = _controls(engram).forget(
        principal,
        userId,
        entry_ids=body.entry_ids,
        keys=body.keys,
        categories=body.categories,
        archival_ids=body.archival_ids,
    )
    return ForgetResponse(deleted=[e.id for e in done.entries], archival_deleted=done.archival)
