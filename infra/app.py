"""The CDK app: `cdk synth` / `cdk deploy` (cdk.json), or `python infra/app.py` to synthesise
without the CDK CLI (what `make synth` does; no AWS account or credentials needed)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# The stack reads the DynamoDB adapter's table definition, so the package must import.
sys.path[:0] = [str(ROOT / "infra"), str(ROOT / "functions")]

from aws_cdk import App, Environment, Validations  # noqa: E402
from cdk_nag import AwsSolutionsChecks  # noqa: E402
from engram_infra import EngramStack  # noqa: E402


def direct_context(argv: list[str]) -> dict[str, Any]:
    """Run without the CLI, the app reads cdk.json's context and `-c key=value` pairs itself."""
    context: dict[str, Any] = json.loads((ROOT / "cdk.json").read_text()).get("context", {})
    args = iter(argv)
    for arg in args:
        if arg in ("-c", "--context"):
            key, separator, value = next(args, "").partition("=")
            if not key or not separator:
                raise SystemExit(f"{arg} expects key=value")
            context[key] = value
    return context


def main() -> None:
    # Under the CLI (CDK_OUTDIR is set) the context arrives through the environment.
    direct = "CDK_OUTDIR" not in os.environ
    app = App(context=direct_context(sys.argv[1:]), outdir=str(ROOT / "cdk.out")) if direct else App()
    # No account or region given: an environment-agnostic template that deploys anywhere.
    env = Environment(account=os.environ.get("CDK_DEFAULT_ACCOUNT"), region=os.environ.get("CDK_DEFAULT_REGION"))
    stack_name = app.node.try_get_context("stackName") or "Engram"
    EngramStack(app, stack_name, env=env, description="Engram: persistent memory service for AI agents")
    Validations.of(app).add_plugins(AwsSolutionsChecks(app))
    app.synth()


if __name__ == "__main__":
    main()
