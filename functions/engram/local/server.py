"""``engram serve``: the API over HTTP on loopback, through the Lambda handler.

A thin ASGI app: every request becomes an API Gateway event for ``LocalGateway``; the
handler runs in a worker thread because it is synchronous (as it is in Lambda).
"""

from __future__ import annotations

import os
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from engram.container import Engram
from engram.local.gateway import LocalGateway


def create_asgi_app(engram: Engram, host: str = "127.0.0.1") -> Starlette:
    gateway = LocalGateway(engram)

    async def proxy(request: Request) -> Response:
        limit = engram.settings.max_body_bytes
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            body: bytes = b"x" * (limit + 1)  # let the gateway answer 413 the usual way
        else:
            body = await _read_limited(request, limit)
        reply = await run_in_threadpool(
            gateway.handle,
            request.method,
            # The raw, still percent-encoded path, as API Gateway (REST) delivers it.
            request.scope.get("raw_path", b"").decode("latin-1") or request.url.path,
            query=request.url.query,
            headers=dict(request.headers),
            body=body or None,
        )
        return Response(content=reply.body, status_code=reply.status, headers=reply.headers)

    async def fallback(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        response = await proxy(Request(scope, receive))
        await response(scope, receive, send)

    # Mounted apps (such as /mcp) go in routes; everything else reaches the gateway as the
    # router's default, whatever characters its path holds (a catch-all Route would not
    # match a path with a newline and would answer with Starlette's plain-text 404).
    from engram.api.mcp_server import bearer_authenticator, mcp_endpoint

    # On loopback the MCP SDK also checks Host and Origin (DNS rebinding); on another
    # interface the host names are the operator's, so only the API key guards /mcp.
    loopback = host in ("127.0.0.1", "localhost", "::1")
    mcp = mcp_endpoint(lambda: engram, bearer_authenticator(engram), loopback=loopback)
    routes: list[Any] = [Route("/mcp", mcp.app)]
    app = Starlette(routes=routes, lifespan=mcp.lifespan)
    app.router.default = fallback
    return app


async def _read_limited(request: Request, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        chunks.append(chunk)
        if size > limit:
            break
    return b"".join(chunks)


def serve(
    engram: Engram, host: str = "127.0.0.1", port: int = 8700, log_level: str = "warning", workers: int = 1
) -> None:
    import uvicorn

    if workers <= 1:
        uvicorn.run(create_asgi_app(engram, host), host=host, port=port, log_level=log_level, access_log=False)
        return
    # Several processes, one per core: each builds its own container from the same
    # settings (passed through the environment by the CLI) over the same SQLite files;
    # WAL lets them share the store, the drainer's file lock keeps the index in order.
    os.environ["ENGRAM_SERVE_HOST"] = host
    uvicorn.run(
        "engram.local.server:worker_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        access_log=False,
    )


def worker_app() -> Starlette:
    """The app of one ``engram serve --workers N`` process."""
    from engram.container import build, set_engram

    engram = build()
    set_engram(engram)
    return create_asgi_app(engram, os.environ.get("ENGRAM_SERVE_HOST", "127.0.0.1"))
