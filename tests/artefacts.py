"""The shipped artefacts, runnable here: the dependency layers built for this machine's
Python, the code asset staged by the stack's own rules, and handlers run from them alone.

The layers are built by ``layers/build.py --host`` (the same resolution, split and
pruning as the Lambda build, for this CPU and Python instead of arm64 and 3.12, which
cannot run here) into ``layers/build/host-<key>/``, where ``<key>`` hashes the
dependency list, the target and the build script: a rerun reuses the build, and any
change to what the layer holds rebuilds it. A file lock keeps parallel test workers
from building it twice.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "infra"))
sys.path.insert(0, str(ROOT / "layers"))

import build as layer_build  # noqa: E402  (layers/build.py)
from engram_infra.assets import CODE_DIR, CORE_LAYER, LAYER_DIR, MCP_LAYER, shipped_files  # noqa: E402

DRIVER = Path(__file__).resolve().parent / "lambda_driver.py"


def host_layers() -> Path:
    """``<dir>/core/python`` and ``<dir>/mcp/python`` for this interpreter, built once per key."""
    target = layer_build.host_target()
    built = LAYER_DIR / f"host-{layer_build.build_key(target)}"
    if (built / ".complete").is_file():
        return built
    LAYER_DIR.mkdir(parents=True, exist_ok=True)
    with open(LAYER_DIR / ".host-build.lock", "a+b") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        if not (built / ".complete").is_file():
            for stale in LAYER_DIR.glob("host-*"):
                shutil.rmtree(stale, ignore_errors=True)
            staging = LAYER_DIR / f".staging-{os.getpid()}"
            layer_build.build(staging, target)
            staging.rename(built)
            (built / ".complete").write_text(json.dumps({"python": target.python_version, "machine": target.machine}))
    return built


def stage_code_asset(dest: Path) -> Path:
    """The code asset as CDK zips it: functions/ less caches, tests and bytecode."""
    for rel in shipped_files(CODE_DIR):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(CODE_DIR / rel, target)
    return dest


def layer_paths(layers: Path, handler: str) -> list[Path]:
    names = [CORE_LAYER, MCP_LAYER] if handler.startswith("engram.handlers.mcp.") else [CORE_LAYER]
    return [layers / name / "python" for name in names]


class LambdaProcess:
    """One warm Lambda instance: a clean interpreter running ``handler`` from the artefacts."""

    def __init__(self, handler: str, code: Path, layers: Path, env: dict[str, str]) -> None:
        self.handler = handler
        self.paths = [code, *layer_paths(layers, handler)]
        self._proc = subprocess.Popen(
            [sys.executable, "-I", "-S", str(DRIVER), handler, *map(str, self.paths)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=str(code),
        )
        # The function's logs; drained as they come so a chatty function never blocks.
        self.logs: list[str] = []
        self._drain = threading.Thread(target=self._collect, daemon=True)
        self._drain.start()
        self.started = self._read()

    def _collect(self) -> None:
        assert self._proc.stderr is not None
        for line in self._proc.stderr:
            self.logs.append(line)

    def _read(self) -> dict[str, Any]:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            self._proc.wait(timeout=10)
            self._drain.join(timeout=5)
            raise AssertionError(f"{self.handler} exited {self._proc.returncode}: {''.join(self.logs)[-4000:]}")
        return dict(json.loads(line))

    def invoke(self, event: dict[str, Any]) -> dict[str, Any]:
        """``{"result": ...}`` or ``{"error": ..., "message": ...}`` for one event."""
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps({"event": event}) + "\n")
        self._proc.stdin.flush()
        return self._read()

    def result(self, event: dict[str, Any]) -> Any:
        answer = self.invoke(event)
        assert "result" in answer, f"{self.handler} failed: {answer.get('trace') or answer}"
        return answer["result"]

    def module_files(self) -> dict[str, str]:
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps({"modules": True}) + "\n")
        self._proc.stdin.flush()
        return dict(self._read()["result"])

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._drain.join(timeout=5)
        if self._proc.stdout is not None:
            self._proc.stdout.close()
