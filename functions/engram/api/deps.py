"""What every route needs: the container and the calling principal."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Path, Query

from engram.api.auth import current_principal
from engram.api.schemas import ID_PATTERN
from engram.container import Engram, get_engram
from engram.domain.models import Principal

UserId = Annotated[str, Path(pattern=ID_PATTERN, description="The user the memories are about.")]
Limit = Annotated[int, Query(ge=1, le=1000, description="Page size.")]
Cursor = Annotated[str | None, Query(max_length=512, description="From the previous page's nextCursor.")]


def new_router() -> Router:
    return Router()  # type: ignore[no-untyped-call]  # Powertools' Router.__init__ is unannotated


def context(router: Router) -> tuple[Engram, Principal]:
    """The container and the caller. ``router`` is kept for the routes' call sites; the
    principal comes from the request's own context, never from ``router.current_event``
    (Powertools' shared, process-wide slot)."""
    return get_engram(), current_principal()
