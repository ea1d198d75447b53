"""The client distribution: built from its own pyproject, installed into a clean venv with
nothing but its declared dependencies, then used against ``engram serve``.

Uses pip's cache and the package index only (no other network). About 30 s, most of it
pip resolving httpx and pydantic."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.e2e.conftest import EngramServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "functions" / "engram_memory_client"
# What the service needs and an agent's process must not be made to install.
SERVICE_ONLY = {"engram", "boto3", "botocore", "aws-lambda-powertools", "mcp", "opensearch-py", "numpy", "starlette"}

USE_IT = """
import json, sys
from engram_memory_client import EngramClient, AsyncEngramClient, OPERATIONS
try:
    import engram  # the service package must not come along
    service = True
except ImportError:
    service = False
import engram_memory_client
assert engram_memory_client.__file__.startswith(sys.prefix), engram_memory_client.__file__
url, key = sys.argv[1], sys.argv[2]
with EngramClient(url, key) as client:
    client.remember("dist-user", "favorite_color", "blue", category="preference")
    recalled = client.recall("dist-user", message="What colour do I like?")
    count = client.count_memories("dist-user").count
print(json.dumps({"service": service, "operations": len(OPERATIONS), "count": count, "context": recalled.context}))
"""


def _run(*args: str | Path, timeout: int = 300) -> str:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_given_the_client_distribution_when_installed_in_a_clean_venv_then_it_talks_to_engram_alone(
    server: EngramServer, tmp_path: Path
) -> None:
    # Built from a copy: setuptools leaves build/ and *.egg-info beside the sources it builds.
    source = tmp_path / "source"
    shutil.copytree(SOURCE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    wheels = tmp_path / "wheels"
    # The dev venv has setuptools and wheel: build without fetching a build environment.
    isolation = [] if importlib.util.find_spec("wheel") is None else ["--no-build-isolation"]
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", *isolation, source, "-w", wheels)
    [wheel] = wheels.glob("engram_memory_client-*.whl")
    with zipfile.ZipFile(wheel) as z:
        metadata = z.read(next(n for n in z.namelist() if n.endswith("METADATA"))).decode()
        assert {n.split("/")[0] for n in z.namelist()} == {
            "engram_memory_client",
            wheel.name.split("-py3")[0] + ".dist-info",
        }
    requires = [line.split(":", 1)[1].strip() for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    # Always: httpx and pydantic. The framework adapters only with their extras.
    always = sorted(r.split(">")[0].split("<")[0].strip() for r in requires if "extra ==" not in r)
    assert always == ["httpx", "pydantic"]
    extras = sorted(r.split(">")[0].strip() for r in requires if "extra ==" in r)
    assert extras == ["langchain-core", "langgraph"]

    env_dir = tmp_path / "clean"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", wheel)
    installed = {
        d["name"].lower()
        for d in json.loads(_run(sys.executable, "-m", "pip", "--python", python, "list", "--format", "json"))
    }
    assert "engram-memory-client" in installed
    assert installed & SERVICE_ONLY == set()

    key = server.key("acme", "dist-agent", "writer")
    # -I: isolated from PYTHONPATH and user site-packages, so only the clean venv is seen.
    result = json.loads(_run(python, "-I", "-c", USE_IT, server.url, key, timeout=60))
    assert result["service"] is False
    assert result["count"] == 1
    assert "blue" in result["context"]
    assert result["operations"] >= 64
