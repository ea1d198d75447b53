"""``make bench``: every benchmark under bench/, each within a time budget, then charts and docs.

Each benchmark module that exists runs in its own interpreter (``python -m bench.X``),
with arguments that keep it inside its budget on a 2-core machine, and is stopped if it
overruns. Its output goes to ``bench/results/logs/X.log`` and its figures to
``bench/results/X.json`` (the module writes them). A module this file does not know yet
runs with its defaults and the default budget. Afterwards ``bench.charts`` draws the
PNGs and ``bench.report`` writes ``docs/performance.md`` from whatever results exist.

Budgets add up to under 12 minutes; ``--only a,b`` runs a subset, ``--skip`` leaves some out.

Run: ``make bench`` or ``.venv/bin/python -m bench.run_all [--only vs_mem0,load]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench.common import RESULTS

BENCH = Path(__file__).parent
ROOT = BENCH.parent
# Shared helpers and the orchestration itself: not benchmarks. The fuzz run is a long
# security run of its own (make fuzz), not a figure of speed.
# conv_data is the conversation data set and conv_tune fits the ranking on its training
# split: neither is a benchmark to rerun on every make bench. sensitive_holdout is the
# sensitive filter's held-out data set (bench.sensitive_corpus reads it); sensitive_train
# fits the filter's learned stage and rewrites its shipped weights, which no bench run may do.
# sensitive_first_run is the one run of a new held-out part, by hand, once, before anyone reads it.
NOT_BENCHMARKS = {
    "__init__",
    "common",
    "eval_data",
    "run_all",
    "charts",
    "report",
    "cost",
    "fuzz",
    "conv_data",
    "conv_questions",
    "conv_refs",  # a yardstick for writing conv_data's questions, not a measure of Engram
    "conv_tune",
    "sensitive_holdout",
    "sensitive_holdout_b",
    "sensitive_holdout_c",
    "sensitive_train",
    "sensitive_train_lists",  # the trainer's hand-written families (21d), data, not a measure of Engram
    "sensitive_train_talk",  # the same, 22e's counts and talk about a secret with no value
    "sensitive_train_machine",  # the same, 23e's machine text (configs, logs, lists, tool calls, payments)
    "sensitive_first_run",
    "sensitive_context_probe",  # a one-off experiment (session 20e, about 40 minutes), not a measure of Engram
}
DEFAULT_BUDGET_S = 30
TOTAL_BUDGET_S = 720


@dataclass(frozen=True)
class Plan:
    args: tuple[str, ...] = ()
    budget_s: int = DEFAULT_BUDGET_S
    # Runs only when this holds (e.g. the layers are built); says why not otherwise.
    needs: str | None = None


# Arguments chosen so each finishes well inside its budget on 2 cores; the figures the
# docs quote come from these runs, and each module's own defaults are the longer runs.
PLANS: dict[str, Plan] = {
    "cold_start": Plan(("--repeats", "3"), 60),
    "core_latency": Plan((), 30),
    "sensitive_corpus": Plan((), 15),
    "recall_latency": Plan(("--calls", "300", "--embedders", "hash"), 60),
    "retrieval_eval": Plan(("--users", "60", "--embedders", "hash"), 90),
    "vs_mem0": Plan(("--users", "20", "--embedders", "hash,minilm", "--max-queries", "400"), 90),
    "extraction": Plan((), 30),
    "dream": Plan(("--users", "300", "--entries", "100"), 45),
    "dynamodb_requests": Plan((), 30),
    "integrations": Plan((), 20),
    "user_control": Plan(("--n", "100"), 20),
    "load": Plan(("--seconds", "8", "--connections", "16"), 60),
    "serialised_resolver": Plan(("--windows", "3"), 20),
    "sizes": Plan((), 15, needs="layers"),
    # A short run under its own label: the docs quote conv_eval_after.json, the full run.
    "conv_eval": Plan(("--embedders", "hash", "--conversations", "4", "--label", "bench"), 60),
    "episodic_latency": Plan(("--calls", "100"), 30),
    "code_health": Plan((), 15),
    "dedup_calibration": Plan((), 10),
    "dedup_latency": Plan((), 20),
}


def discover() -> list[str]:
    found = sorted(p.stem for p in BENCH.glob("*.py") if p.stem not in NOT_BENCHMARKS)
    known = [name for name in PLANS if name in found]
    return known + [name for name in found if name not in PLANS]


def unmet(plan: Plan) -> str | None:
    if plan.needs == "layers" and not (ROOT / "layers" / "build" / "core" / "python").is_dir():
        return "the layers are not built (make layer, or make sizes)"
    return None


def run_one(name: str, plan: Plan, logs: Path) -> dict[str, object]:
    log = logs / f"{name}.log"
    cmd = [sys.executable, "-m", f"bench.{name}", *plan.args]
    started = time.perf_counter()
    env = {**os.environ, "MPLBACKEND": "Agg", "MEM0_TELEMETRY": "False"}
    with log.open("w", encoding="utf-8") as out:
        out.write(f"$ {' '.join(['python', '-m', f'bench.{name}', *plan.args])}\n")
        out.flush()
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = proc.wait(timeout=plan.budget_s)
            status = "ok" if code == 0 else f"failed (exit {code})"
        except subprocess.TimeoutExpired:
            # Its whole process group: a benchmark may have started a server.
            os.killpg(proc.pid, 15)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()
            status = f"over its {plan.budget_s} s budget, stopped"
    return {"name": name, "status": status, "seconds": round(time.perf_counter() - started, 1), "log": str(log)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Run every benchmark within its budget, then draw charts and docs.")
    ap.add_argument("--only", default="", help="comma-separated module names")
    ap.add_argument("--skip", default="", help="comma-separated module names")
    ap.add_argument("--no-report", action="store_true", help="do not redraw charts or rewrite docs/performance.md")
    args = ap.parse_args(argv)
    names = discover()
    if args.only:
        wanted = args.only.split(",")
        names = [n for n in names if n in wanted]
    names = [n for n in names if n not in args.skip.split(",")]
    logs = RESULTS / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    planned = sum(PLANS.get(n, Plan()).budget_s for n in names)
    print(f"{len(names)} benchmarks, budgets adding up to {planned} s (limit {TOTAL_BUDGET_S} s)", flush=True)
    outcomes = []
    started = time.perf_counter()
    for name in names:
        plan = PLANS.get(name, Plan())
        reason = unmet(plan)
        if reason:
            outcomes.append({"name": name, "status": f"skipped: {reason}", "seconds": 0.0})
        else:
            outcomes.append(run_one(name, plan, logs))
        o = outcomes[-1]
        print(f"  {name:20} {o['status']:32} {o['seconds']:>6} s", flush=True)
    total = round(time.perf_counter() - started, 1)
    print(f"all benchmarks: {total} s", flush=True)
    if not args.no_report:
        from bench import charts, report

        for path in charts.main():
            print(f"  chart {path.relative_to(ROOT)}")
        print(f"  wrote {report.main().relative_to(ROOT)}")
    failed = [o["name"] for o in outcomes if not (str(o["status"]) == "ok" or str(o["status"]).startswith("skipped"))]
    if failed:
        print(f"not ok: {', '.join(map(str, failed))} (see bench/results/logs/)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
