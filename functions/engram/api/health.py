"""Liveness: the one route (with /docs) that needs no key."""

from __future__ import annotations

from engram import __version__
from engram.api.deps import new_router
from engram.api.schemas import Health

router = new_router()


@router.get("/health", summary="Is the service up", tags=["health"], security=[])
def health() -> Health:
    return Health(status="ok", version=__version__)
