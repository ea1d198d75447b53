"""Code health of functions/engram: the figures the architecture gates are about.

Prints, and writes to bench/results/code_health.json:
- files over 500 lines;
- functions over 60 lines;
- blocks (functions, methods, classes) of cyclomatic complexity rank C or worse, and
  D or worse (radon's ranks: A 1-5, B 6-10, C 11-20, D 21-30, E 31-40, F 41+);
- `isinstance` checks on concrete adapter classes outside the adapters themselves;
- import-layer contract violations (lint-imports, the contracts in pyproject.toml).

    python -m bench.code_health                     # this checkout
    python -m bench.code_health --root /other/tree  # another checkout (e.g. an older commit)
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from radon.complexity import cc_rank, cc_visit

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "code_health.json"
ADAPTER_CLASS = re.compile(r"isinstance\([^)]*\b(Sqlite\w+|Dynamo\w+|LocalIndex|OpenSearch\w+)\b")


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def measure(root: Path) -> dict[str, Any]:
    package = root / "functions" / "engram"
    long_files, long_functions, rank_c, rank_d, type_checks = [], [], [], [], []
    for path in sorted(package.rglob("*.py")):
        rel = str(path.relative_to(root))
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n") + 1
        if lines > 500:
            long_files.append({"file": rel, "lines": lines})
        for fn in _functions(ast.parse(text)):
            length = (fn.end_lineno or fn.lineno) - fn.lineno + 1
            if length > 60:
                long_functions.append({"function": f"{rel}:{fn.name}", "lines": length})
        for block in cc_visit(text):
            rank = cc_rank(block.complexity)
            if rank >= "C":
                entry = {"block": f"{rel}:{block.name}", "complexity": block.complexity, "rank": rank}
                rank_c.append(entry)
                if rank >= "D":
                    rank_d.append(entry)
        if "/adapters/" not in rel:
            type_checks += [f"{rel}: {m.group(0)}" for m in ADAPTER_CLASS.finditer(text)]
    return {
        "filesOver500Lines": long_files,
        "functionsOver60Lines": long_functions,
        "blocksRankCOrWorse": rank_c,
        "blocksRankDOrWorse": rank_d,
        "adapterTypeChecksOutsideAdapters": type_checks,
        "importViolations": _import_violations(root),
    }


def _import_violations(root: Path) -> int | None:
    """Broken import contracts, by this checkout's pyproject (None if it defines none)."""
    if "[tool.importlinter]" not in (root / "pyproject.toml").read_text(encoding="utf-8"):
        return None
    linter = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run(
        [str(linter), "--config", str(root / "pyproject.toml")],
        cwd=root,
        env={"PYTHONPATH": str(root / "functions"), "PATH": str(linter.parent)},
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"Contracts: \d+ kept, (\d+) broken", run.stdout)
    return int(found.group(1)) if found else None  # the linter could not run these contracts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    figures = measure(args.root.resolve())
    summary = {k: (len(v) if isinstance(v, list) else v) for k, v in figures.items()}
    for key, value in summary.items():
        print(f"{key}: {value}")
    for entry in figures["blocksRankDOrWorse"]:
        print(f"  {entry['rank']} ({entry['complexity']}) {entry['block']}")
    if not args.no_write and args.root.resolve() == ROOT:
        RESULTS.write_text(json.dumps({"summary": summary, **figures}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
