"""``engram serve``: the API over HTTP on loopback, through the Lambda handler.

A thin ASGI app: every request becomes an API Gateway event for ``LocalGateway``; the
handler runs in a worker thread because it is synchronous (as it is in Lambda).
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from engram.container import Engram
from engram.local.gateway import LocalGateway

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]


def create_asgi_app(engram: Engram) -> Starlette:
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
            request.url.path,
            query=request.url.query,
            headers=dict(request.headers),
            body=body or None,
        )
        return Response(content=reply.body, status_code=reply.status, headers=reply.headers)

    routes: list[Any] = [
        Route("/{path:path}", proxy, methods=METHODS),
    ]
    return Starlette(routes=routes)


async def _read_limited(request: Request, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        chunks.append(chunk)
        if size > limit:
            break
    return b"".join(chunks)


def serve(engram: Engram, host: str = "127.0.0.1", port: int = 8700, log_level: str = "warning") -> None:
    import uvicorn

    uvicorn.run(create_asgi_app(engram), host=host, port=port, log_level=log_level, access_log=False)
