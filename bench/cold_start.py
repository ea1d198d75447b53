"""Cold start: handler import times, the first request, and the size of what Lambda unpacks.

1. Import time of every handler module (``engram.handlers.*``) in a fresh interpreter,
   the median of ``--repeats`` runs, twice: as on this machine (Powertools' Tracer is
   off outside Lambda) and with the variables Lambda sets (``LAMBDA_TASK_ROOT``), where
   X-Ray tracing is on and its SDK is imported.
2. The API handler's whole cold path in a fresh interpreter: import, the first request
   (which builds the resolver and its routes, and the container) and the first recall.
   Deferring an import only moves it here; this figure is the one that cannot be gamed.
3. Where the import time goes: the heaviest top-level packages under the API handler
   (``python -X importtime``).
4. The code asset (functions/ without caches and tests, by the stack's own rules) and,
   when ``make layer`` has built them, the dependency layers, unzipped.

5. With ``--artefacts``: each handler's import CPU from the shipped artefacts alone, as
   Lambda runs it (a clean ``python -I -S -B``: only the staged code asset and the layers
   on the path, nothing written, as ``/opt`` and ``/var/task`` are read-only), with the
   layers built for this machine's Python twice: sources only (how layers shipped before)
   and with bytecode (how ``layers/build.py`` ships them now). This machine cannot run
   the arm64 python3.12 layer itself, so the bytecode is this Python's; the Lambda
   build's is CPython 3.12's (see layers/build.py).

Goals: API handler import under 250 ms here; code asset under 2 MB.
Run: ``.venv/bin/python -m bench.cold_start [--repeats 5] [--artefacts]``
"""

from __future__ import annotations

import argparse
import json
import os
import pkgutil
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import engram.handlers

from bench.common import import_time_ms, write_results

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "infra"))

from engram_infra.assets import CODE_DIR, CORE_LAYER, LAYER_DIR, MCP_LAYER, shipped_files  # noqa: E402

GOAL_API_IMPORT_MS = 250.0
GOAL_CODE_BYTES = 2 * 1024 * 1024
# What the Lambda runtime sets and Powertools reads to decide whether to trace.
LAMBDA_ENV = {"LAMBDA_TASK_ROOT": "/var/task", "AWS_LAMBDA_FUNCTION_NAME": "engram-bench", "AWS_REGION": "us-east-1"}
OUTSIDE_LAMBDA = ("LAMBDA_TASK_ROOT", "AWS_LAMBDA_FUNCTION_NAME", "POWERTOOLS_TRACE_DISABLED")

COLD_REQUEST = """
import json, time
t0 = time.perf_counter()
import engram.handlers.api as api
t1 = time.perf_counter()
from engram.api.auth import principal_context
from engram.domain.models import Principal, Role
from engram.local.events import api_event
from engram.local.lambda_context import LocalContext
who = principal_context(Principal("cold", "agent-a", frozenset({Role.WRITER})))
t2 = time.perf_counter()
r1 = api.handler(api_event("GET", "/health"), LocalContext())
t3 = time.perf_counter()
body = json.dumps({"message": "what is my favorite food?"})
r2 = api.handler(api_event("POST", "/v1/users/u1/recall", body=body, authorizer=who), LocalContext())
t4 = time.perf_counter()
assert r1["statusCode"] == 200 and r2["statusCode"] == 200, (r1, r2)
print(json.dumps({"import_ms": (t1 - t0) * 1000, "first_request_ms": (t3 - t2) * 1000,
                  "first_recall_ms": (t4 - t3) * 1000, "total_ms": (t1 - t0 + t4 - t2) * 1000}))
"""


@contextmanager
def environment(set_: dict[str, str], unset: tuple[str, ...] = ()) -> Iterator[None]:
    saved = dict(os.environ)
    for name in unset:
        os.environ.pop(name, None)
    os.environ.update(set_)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


TRACER_COST = """
import time
c0 = time.process_time()
import engram.handlers.api
c1 = time.process_time()
from aws_lambda_powertools import Tracer
Tracer(service="engram")
c2 = time.process_time()
print((c1 - c0) * 1000, (c2 - c1) * 1000)
"""


def cpu_ms(repeats: int) -> dict[str, float]:
    """CPU time (not wall time, which a shared machine's load inflates) of importing the API
    handler, and of then constructing Powertools' Tracer as every handler did at import
    before it was built in the Lambda runtime only: before = handler + tracer."""
    runs = []
    for _ in range(repeats):
        with environment({}, OUTSIDE_LAMBDA):
            out = subprocess.run([sys.executable, "-c", TRACER_COST], capture_output=True, text=True, check=True)
        runs.append([float(x) for x in out.stdout.strip().splitlines()[-1].split()])
    handler = statistics.median(r[0] for r in runs)
    tracer = statistics.median(r[1] for r in runs)
    return {"api_import_cpu_ms": round(handler, 1), "tracer_cpu_ms": round(tracer, 1)}


def handler_modules() -> list[str]:
    # Underscored modules are helpers of the handlers, not entry points.
    found = pkgutil.iter_modules(engram.handlers.__path__)
    return sorted(f"engram.handlers.{m.name}" for m in found if not m.name.startswith("_"))


def cold_request(repeats: int) -> dict[str, float]:
    runs = []
    for _ in range(repeats):
        with (
            tempfile.TemporaryDirectory(prefix="engram-cold-") as tmp,
            environment({"ENGRAM_DATA_DIR": tmp}, OUTSIDE_LAMBDA),
        ):
            out = subprocess.run([sys.executable, "-c", COLD_REQUEST], capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return {k: round(statistics.median(r[k] for r in runs), 1) for k in runs[0]}


def heaviest_imports(module: str, top: int = 10) -> list[dict[str, Any]]:
    """The module's direct imports by cumulative import time (best of three runs). A package
    imported first by an earlier sibling is counted there."""
    best: dict[str, float] = {}
    for _ in range(3):
        with environment({}, OUTSIDE_LAMBDA):
            err = subprocess.run(
                [sys.executable, "-X", "importtime", "-c", f"import {module}"],
                capture_output=True,
                text=True,
                check=True,
            ).stderr
        for line in err.splitlines():
            m = re.match(r"import time:\s+\d+ \|\s+(\d+) \|( *)(\S+)", line)
            # The module itself is at one space of indentation, what it imports at three.
            if m and len(m[2]) == 3:
                best[m[3]] = min(best.get(m[3], float("inf")), int(m[1]) / 1000)
    ranked = sorted(best.items(), key=lambda kv: -kv[1])[:top]
    return [{"package": name, "ms": round(ms, 1)} for name, ms in ranked]


def unzipped(root: Path, files: list[Path]) -> dict[str, float | int]:
    size = sum((root / f).stat().st_size for f in files)
    return {"files": len(files), "unzipped_bytes": size, "unzipped_mib": round(size / 1024 / 1024, 2)}


def sizes() -> dict[str, Any]:
    out: dict[str, Any] = {"code": unzipped(CODE_DIR, list(shipped_files(CODE_DIR)))}
    for layer in (CORE_LAYER, MCP_LAYER):
        root = LAYER_DIR / layer
        if (root / "python").is_dir():
            out[f"layer_{layer}"] = unzipped(root, [p.relative_to(root) for p in root.rglob("*") if p.is_file()])
        else:
            out[f"layer_{layer}"] = None  # not built: `make layer`
    return out


ARTEFACT_IMPORT = """
import sys, time
sys.path[:0] = sys.argv[1:]
c0 = time.process_time()
import {module}
print((time.process_time() - c0) * 1000, len(sys.modules))
"""


def artefact_import_cpu(modules: list[str], repeats: int) -> dict[str, Any]:
    """Import CPU per handler from the artefacts: layers without bytecode, then with it."""
    import shutil

    sys.path.insert(0, str(ROOT / "layers"))
    import build as layer_build  # layers/build.py

    target = layer_build.host_target()
    code = Path(tempfile.mkdtemp(prefix="engram-code-"))
    for rel in shipped_files(CODE_DIR):
        (code / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(CODE_DIR / rel, code / rel)
    out: dict[str, Any] = {"python": f"{target.python_version} {target.machine}", "handlers": {}}
    try:
        for variant, bytecode in (("sources_only", False), ("with_bytecode", True)):
            layers = LAYER_DIR / f"bench-{variant}-{layer_build.build_key(target)}"
            if not (layers / ".complete").is_file():
                layer_build.build(layers, target, bytecode=bytecode)
                (layers / ".complete").write_text(variant)
            for module in modules:
                paths = [str(code), str(layers / CORE_LAYER / "python")]
                if module == "engram.handlers.mcp":
                    paths.append(str(layers / MCP_LAYER / "python"))
                runs = []
                for _ in range(repeats):
                    with environment(LAMBDA_ENV):
                        done = subprocess.run(
                            [sys.executable, "-I", "-S", "-B", "-c", ARTEFACT_IMPORT.format(module=module), *paths],
                            capture_output=True,
                            text=True,
                            check=True,
                        )
                    cpu, count = done.stdout.split()
                    runs.append((float(cpu), int(count)))
                entry = out["handlers"].setdefault(module, {})
                entry[f"{variant}_cpu_ms"] = round(statistics.median(r[0] for r in runs), 1)
                entry["modules"] = runs[0][1]
    finally:
        shutil.rmtree(code, ignore_errors=True)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description="Handler import times, the first request, asset sizes.")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument(
        "--artefacts", action="store_true", help="also time each handler's import from the built artefacts (slow)"
    )
    args = ap.parse_args(argv)
    modules = handler_modules()
    if args.artefacts:
        artefacts = artefact_import_cpu(modules, args.repeats)
        print(
            f"Import CPU from the artefacts (python -I -S -B, Python {artefacts['python']}, median of {args.repeats})"
        )
        print(f"  {'module':32}{'modules':>9}{'sources only ms':>17}{'with bytecode ms':>18}")
        for module, r in artefacts["handlers"].items():
            print(f"  {module:32}{r['modules']:>9}{r['sources_only_cpu_ms']:>17.1f}{r['with_bytecode_cpu_ms']:>18.1f}")
    local, in_lambda = {}, {}
    for module in modules:
        with environment({}, OUTSIDE_LAMBDA):
            local[module] = import_time_ms(module, args.repeats)
        with environment(LAMBDA_ENV):
            in_lambda[module] = import_time_ms(module, args.repeats)
    cold = cold_request(args.repeats)
    cpu = cpu_ms(args.repeats)
    heavy = heaviest_imports("engram.handlers.api")
    assets = sizes()
    api_ms = local["engram.handlers.api"]
    results = {
        "repeats": args.repeats,
        "load_average_1m": round(os.getloadavg()[0], 2),
        "import_ms": local,
        "import_ms_lambda_env": in_lambda,
        "api_cold_path_ms": cold,
        **cpu,
        "api_heaviest_imports": heavy,
        "sizes": assets,
        **({"artefact_import_cpu": artefacts} if args.artefacts else {}),
        "goals": {
            "api_import_below_250ms": api_ms < GOAL_API_IMPORT_MS,
            "code_asset_below_2mb": assets["code"]["unzipped_bytes"] < GOAL_CODE_BYTES,
        },
    }
    path = write_results("cold_start", results)
    print(f"Handler import, fresh interpreter, median of {args.repeats} (load average {results['load_average_1m']})")
    print(f"  {'module':32}{'here ms':>10}{'Lambda env ms':>15}")
    for module in modules:
        print(f"  {module:32}{local[module]:>10.1f}{in_lambda[module]:>15.1f}")
    print(
        f"API cold path: import {cold['import_ms']} ms, first request {cold['first_request_ms']} ms, "
        f"first recall {cold['first_recall_ms']} ms, total {cold['total_ms']} ms"
    )
    print(
        f"CPU time: import engram.handlers.api {cpu['api_import_cpu_ms']} ms; constructing the Tracer as before "
        f"adds {cpu['tracer_cpu_ms']} ms"
    )
    print("Heaviest imports under engram.handlers.api: " + ", ".join(f"{h['package']} {h['ms']}" for h in heavy))
    for name, s in assets.items():
        print(
            f"  {name:12} "
            + ("not built (make layer)" if s is None else f"{s['unzipped_mib']} MiB in {s['files']} files")
        )
    print(f"Goals: {results['goals']}")
    print(f"  -> {path}")
    return results


if __name__ == "__main__":
    main()
