"""One moto server per test session (or bench run), on a free loopback port.

Real HTTP through botocore, as in production. moto's backends are not thread-safe (a
failed transaction restores a copy of the whole table, undoing whatever another thread
wrote meanwhile), so requests are served one at a time: DynamoDB itself makes each
request atomic, and the emulator must too for concurrency tests to mean anything.

Connections are kept alive, as botocore keeps them with AWS: werkzeug's development
server closes every one, so each request paid for a new TCP connection and a new server
thread, which then lingered 10 ms draining the socket. Tests with many concurrent
clients (fifty writers on one item) ran about twice as long for it.
"""

from __future__ import annotations

import functools
import io
import logging
import os
import socket
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config
from moto.moto_server.werkzeug_app import MotoRequestHandler
from moto.server import ThreadedMotoServer

DUMMY_CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}
REGION = "us-east-1"

_lock = threading.Lock()
_server: subprocess.Popen[bytes] | None = None
_endpoint: str | None = None


class _OneAtATime:
    def __init__(self, app: Any) -> None:
        self._app = app
        self._lock = threading.Lock()

    def __call__(self, environ: Any, start_response: Any) -> Any:
        with self._lock:
            # Materialise the body inside the lock: the work happens while it is built.
            return list(self._app(environ, start_response))


class _KeepAliveHandler(MotoRequestHandler):
    """HTTP/1.1 with keep-alive: read the whole body, answer with a Content-Length.

    werkzeug's ``run_wsgi`` always sends ``Connection: close`` and then drains the
    socket, which would swallow the next request on a kept connection; here the body
    is read exactly (its length, or its chunks) before the app runs, so the stream is
    at the next request line when the answer is sent.
    """

    protocol_version = "HTTP/1.1"
    # The head and the body go out in two writes: without this, the body would wait for
    # the client's delayed ACK of the head (40 ms a request).
    disable_nagle_algorithm = True

    def run_wsgi(self) -> None:
        environ = self.make_environ()
        if environ.get("wsgi.input_terminated"):  # chunked: werkzeug's reader stops at the last chunk
            body = environ["wsgi.input"].read()
        else:
            length = int(environ.get("CONTENT_LENGTH") or 0)
            body = self.rfile.read(length) if length > 0 else b""
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        answer: dict[str, Any] = {}

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answer["status"], answer["headers"] = status, headers
            return answer.setdefault("written", []).append

        try:
            chunks = self.server.app(environ, start_response)
            try:
                data = b"".join([*answer.get("written", []), *chunks])
            finally:
                getattr(chunks, "close", lambda: None)()
        except Exception:
            self.log_error("moto failed on %s %s", self.command, self.path)
            answer = {"status": "500 Internal Server Error", "headers": []}
            data = b""
            self.close_connection = True
        code, _, reason = answer["status"].partition(" ")
        self.send_response(int(code), reason)
        for name, value in answer["headers"]:
            if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        self.wfile.flush()


def _cache_moto_modules() -> None:
    """moto lists its package directory on every request to route it: list it once."""
    from moto import backends

    if not hasattr(backends.list_of_moto_modules, "cache_info"):
        modules = frozenset(backends.list_of_moto_modules())
        backends.list_of_moto_modules = functools.cache(lambda: modules)  # type: ignore[assignment]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cheap_transaction_rollback() -> None:
    """Make moto's TransactWriteItems snapshot only the items it touches.

    moto deep-copies every table a transaction names (all items and the whole stream)
    before applying it, so that it can restore the copy on failure: a transaction then
    costs time in proportion to the table, and a concurrency test slows to a crawl.
    Here the copy is of the touched items and the stream's length only, restored the
    same way on failure. Sound only because requests are served one at a time.
    """
    from moto.dynamodb import models as ddb_models
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.dynamo_type import DynamoType
    from moto.dynamodb.models.table import Table

    if getattr(DynamoDBBackend, "_engram_cheap_rollback", False):
        return
    real_copy = ddb_models.copy

    class _NoTableCopy:
        def __getattr__(self, name: str) -> Any:
            return getattr(real_copy, name)

        @staticmethod
        def deepcopy(obj: Any, memo: Any = None) -> Any:
            return obj if isinstance(obj, Table) else real_copy.deepcopy(obj, memo)

    original = DynamoDBBackend.transact_write_items

    def transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
        touched: list[tuple[Any, Any, Any, Any]] = []
        streams: dict[int, tuple[Any, int]] = {}
        for action in transact_items:
            _, op = next(iter(action.items()))
            table = self.tables.get(op.get("TableName"))
            if table is None:
                continue
            attrs = op.get("Item") or op.get("Key") or {}
            if table.hash_key_attr not in attrs:
                continue
            hash_value = DynamoType(attrs[table.hash_key_attr])
            range_value = DynamoType(attrs[table.range_key_attr]) if table.range_key_attr in attrs else None
            current = table.get_item(hash_value, range_value)
            touched.append((table, hash_value, range_value, real_copy.deepcopy(current)))
            if table.stream_shard is not None:
                streams[id(table)] = (table.stream_shard, len(table.stream_shard.items))
        try:
            original(self, transact_items)
        except BaseException:
            for table, hash_value, range_value, before in reversed(touched):
                bucket = table.items[hash_value] if range_value is not None else table.items
                slot = range_value if range_value is not None else hash_value
                if before is None:
                    bucket.pop(slot, None)
                else:
                    bucket[slot] = before
                if range_value is not None and not table.items[hash_value]:
                    del table.items[hash_value]
            for shard, length in streams.values():
                del shard.items[length:]
            raise

    ddb_models.copy = _NoTableCopy()  # type: ignore[assignment]
    DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]
    DynamoDBBackend._engram_cheap_rollback = True  # type: ignore[attr-defined]


def start_server(port: int) -> ThreadedMotoServer:
    """ThreadedMotoServer on ``127.0.0.1:port`` serving one request at a time."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    _cheap_transaction_rollback()
    _cache_moto_modules()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    inner = server._server  # the werkzeug server; its app and handler are looked up per request
    assert inner is not None
    inner.app = _OneAtATime(inner.app)  # type: ignore[attr-defined]
    inner.RequestHandlerClass = _KeepAliveHandler
    return server


def moto_endpoint() -> str:
    """Start the server on first use; the same endpoint afterwards.

    The server runs in a child process: the tests drive it from many threads, and in
    one process they and the emulator would take turns on a single interpreter lock.
    """
    global _server, _endpoint
    with _lock:
        if _endpoint is None:
            # Never sign anything with real credentials, whatever the environment holds.
            os.environ.update(DUMMY_CREDENTIALS)
            port = _free_port()
            proc = subprocess.Popen(
                [sys.executable, "-m", "tests.moto_server", str(port)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=str(Path(__file__).resolve().parent.parent),
                env={**os.environ, **DUMMY_CREDENTIALS},
            )
            assert proc.stdout is not None
            if proc.stdout.readline().strip() != b"ready":
                proc.kill()
                raise RuntimeError("moto server did not start")
            _server, _endpoint = proc, f"http://127.0.0.1:{port}"
        return _endpoint


def stop_moto() -> None:
    global _server, _endpoint
    with _lock:
        if _server is not None:
            assert _server.stdin is not None
            _server.stdin.close()  # the child exits when its stdin closes
            try:
                _server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                _server.kill()
                _server.wait()
        _server, _endpoint = None, None


def dynamodb_client(endpoint: str | None = None) -> Any:
    return boto3.client(
        "dynamodb",
        endpoint_url=endpoint or moto_endpoint(),
        region_name=REGION,
        aws_access_key_id=DUMMY_CREDENTIALS["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=DUMMY_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        config=Config(max_pool_connections=64, retries={"mode": "standard", "max_attempts": 3}),
    )


def fresh_table_name(prefix: str = "engram") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def _serve_until_stdin_closes(port: int) -> None:
    server = start_server(port)
    print("ready", flush=True)
    # The parent closes our stdin when it is done, or dies, which closes it too.
    sys.stdin.buffer.read()
    server.stop()


if __name__ == "__main__":
    _serve_until_stdin_closes(int(sys.argv[1]))
