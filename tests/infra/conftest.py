"""One synth of the whole Engram stack per test session, shared by every infra test.

The layers are replaced by empty placeholders (the real ones come from `make layer`),
the defaults come from cdk.json exactly as `cdk deploy` would use them, and the
AwsSolutions cdk-nag pack runs as a validation plugin during the synth.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "infra"))

STACK = "Engram"


def cdk_json_context() -> dict[str, Any]:
    return dict(json.loads((ROOT / "cdk.json").read_text())["context"])


def placeholder_layers(root: Path) -> Path:
    for layer in ("core", "mcp"):
        site = root / layer / "python"
        site.mkdir(parents=True, exist_ok=True)
        (site / "PLACEHOLDER.txt").write_text("The real layer is built by `make layer`.\n")
    return root


@dataclass
class Synth:
    outdir: Path
    template: dict[str, Any]
    metadata: dict[str, Any]
    nag_failure: str | None
    _cache: dict[str, Any] = field(default_factory=dict)

    @property
    def resources(self) -> dict[str, dict[str, Any]]:
        return dict(self.template["Resources"])

    def of_type(self, resource_type: str) -> dict[str, dict[str, Any]]:
        return {k: v for k, v in self.resources.items() if v["Type"] == resource_type}

    def one(self, resource_type: str, where: Callable[[dict[str, Any]], bool] = lambda r: True) -> dict[str, Any]:
        found = [r for r in self.of_type(resource_type).values() if where(r)]
        assert len(found) == 1, f"expected one {resource_type}, found {len(found)}"
        return found[0]

    def logical_id(self, resource_type: str, contains: str) -> str:
        """The one resource whose construct path ends in ``contains`` (before CDK's hash suffix)."""
        found = [k for k in self.of_type(resource_type) if re.search(rf"{contains}[0-9A-F]{{8}}$", k)]
        assert len(found) == 1, f"expected one {resource_type} named like {contains}, found {found}"
        return found[0]


def synthesize(outdir: Path, context: dict[str, Any]) -> Synth:
    from aws_cdk import App, Validations
    from cdk_nag import AwsSolutionsChecks
    from engram_infra import EngramStack

    app = App(outdir=str(outdir), context=context)
    EngramStack(app, STACK)
    Validations.of(app).add_plugins(AwsSolutionsChecks(app))
    try:
        app.synth()
    except RuntimeError as exc:  # the validation plugin failed the synth; the files are written
        if "Validation failed" not in str(exc):
            raise
    return load(outdir)


def load(outdir: Path) -> Synth:
    report = outdir / "validation-report.json"
    failed = report.is_file() and '"conclusion": "failure"' in report.read_text()
    return Synth(
        outdir=outdir,
        template=json.loads((outdir / f"{STACK}.template.json").read_text()),
        metadata=json.loads((outdir / f"{STACK}.metadata.json").read_text()),
        nag_failure=report.read_text() if failed else None,
    )


@pytest.fixture(scope="session")
def synth(tmp_path_factory: pytest.TempPathFactory) -> Synth:
    # Under xdist the workers share one synth (the first to take the lock makes it);
    # alone, the session's own temporary directory holds it.
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    root = shared / "engram-synth"
    root.mkdir(exist_ok=True)
    with (root / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "done").is_file():
            context = {**cdk_json_context(), "layerDir": str(placeholder_layers(root / "layers"))}
            synthesize(root / "cdk.out", context)
            (root / "done").touch()
    return load(root / "cdk.out")
