"""``engram serve`` in a subprocess, driven over real HTTP.

``SERVER_BACKENDS`` maps a backend name to a function that prepares it and returns the
environment the server needs; the embedded store is always there, other backends
register themselves (the DynamoDB one runs against moto server).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

ENGRAM = str(Path(sys.executable).with_name("engram"))
BackendSetup = Callable[[Path], dict[str, str]]

SERVER_BACKENDS: dict[str, BackendSetup] = {"sqlite": lambda data_dir: {}}

try:  # DynamoDB on moto server; registers itself before the fixture below reads the list
    from tests.e2e import aws_backend  # noqa: F401
except ImportError:
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class EngramServer:
    def __init__(
        self,
        data_dir: Path,
        env: dict[str, str],
        backend: str,
        serve_args: tuple[str, ...] = (),
        # Generous: a loaded CI machine can take tens of seconds to import the app; a server
        # that starts fast is not slowed by a long deadline.
        ready_seconds: float = 120,
    ) -> None:
        self.serve_args = serve_args
        self.ready_seconds = ready_seconds
        self.data_dir = data_dir
        self.backend = backend
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "ENGRAM_DATA_DIR": str(data_dir), "ENGRAM_BACKEND": backend, **env}
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir / "server.log"

    def start(self) -> None:
        data = self.data_dir
        data.mkdir(parents=True, exist_ok=True)
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [ENGRAM, "serve", "--port", str(self.port), *self.serve_args],
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + self.ready_seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"engram serve exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/health", timeout=1).status_code == 200 and self._all_listening():
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()  # never leave a half-started server behind
        raise RuntimeError(f"engram serve did not come up: {self.log.read_text()[-2000:]}")

    def _all_listening(self) -> bool:
        """With ``--workers N``, whether all N processes have bound their socket: until then
        the kernel hands every connection to the ones that have (Linux; elsewhere assumed)."""
        args = list(self.serve_args)
        workers = int(args[args.index("--workers") + 1]) if "--workers" in args else 1
        table = Path("/proc/net/tcp")
        if workers <= 1 or not table.exists():
            return True
        port = f"{self.port:04X}"
        rows = table.read_text().splitlines()[1:]
        listening = [r for r in rows if r.split()[1].endswith(f":{port}") and r.split()[3] == "0A"]
        return len(listening) >= workers

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def cli(self, *args: str) -> str:
        done = subprocess.run([ENGRAM, *args], env=self.env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"engram {' '.join(args)} failed: {done.stderr}")
        return done.stdout

    def key(self, tenant: str, agent: str, *roles: str, groups: tuple[str, ...] = ()) -> str:
        """A key in the server's own store, made in this process as `engram keys create`
        makes it (same service, same store): the CLI pays a fresh interpreter and the
        container's imports per key, about 1 s of CPU, and the suite made dozens.
        ``cli_key`` goes through the CLI (tests/e2e/test_cli.py keeps that path proven)."""
        from engram.container import build
        from engram.domain.models import Role
        from engram.settings import Settings

        saved = dict(os.environ)
        os.environ.update(self.env)  # the backend's settings and credentials, as the server has them
        try:
            engram = build(Settings())
        finally:
            os.environ.clear()
            os.environ.update(saved)
        wanted = frozenset(Role(r) for r in roles or ("writer",))
        return engram.keys.create(tenant, agent, wanted, groups)[1]

    def cli_key(self, tenant: str, agent: str, *roles: str, groups: tuple[str, ...] = ()) -> str:
        args = ["keys", "create", "--tenant", tenant, "--agent", agent, "--json"]
        for r in roles or ("writer",):
            args += ["--role", r]
        for g in groups:
            args += ["--group", g]
        return str(json.loads(self.cli(*args))["key"])

    def client(self, key: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30)


def _serve(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngramServer]:
    data_dir = tmp_path_factory.mktemp(f"engram-{backend}")
    srv = EngramServer(data_dir, SERVER_BACKENDS[backend](data_dir), backend)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngramServer]:
    """The embedded store: most end-to-end stories run here only."""
    yield from _serve("sqlite", tmp_path_factory)


@pytest.fixture(scope="module", params=sorted(SERVER_BACKENDS))
def server_on_every_backend(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[EngramServer]:
    """Every backend (DynamoDB on moto too): for the stories that must hold on all of them.

    Running every story on every backend would cost minutes of the suite's budget for
    little: the store contract suites already hold each adapter to the same behaviour.
    """
    yield from _serve(str(request.param), tmp_path_factory)
