"""Fuzz ``engram serve`` as an outside user would: the schemathesis CLI, every check, each role.

For each role (a writer key and an admin key) a fresh ``engram serve`` on a fresh data
dir takes ``st run`` with every check (``-c all``), every phase (examples, coverage,
fuzzing and stateful, which follows the document's links between operations) until at
least ``--requests`` requests were sent; a run that stops short is repeated with the
next seed. Requests and status codes are counted from schemathesis' own NDJSON report
(one interaction per generated test case), and the server's log is searched for
unhandled errors as a second witness.

    python -m bench.fuzz                        # the long run: 20,000 requests per role
    python -m bench.fuzz --requests 2000 --max-time 120

Writes bench/results/fuzz.json and exits non-zero on any 5xx. The end-to-end suite
(tests/e2e/test_fuzz.py) runs the same function with a short budget.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import write_results
from bench.load import engram_server

DOC = Path(__file__).parents[1] / "docs" / "openapi.json"
ROLES = ("writer", "admin")
PHASES = "examples,coverage,fuzzing,stateful"
CHUNK_SECONDS = 600


@dataclass
class RoleRun:
    role: str
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    # "METHOD /path/{template} -> status" for every 5xx schemathesis saw.
    server_errors: Counter[str] = field(default_factory=Counter)
    # Failed test cases per check (a case can fail several checks).
    check_failures: Counter[str] = field(default_factory=Counter)
    # Unhandled exceptions the server logged, by type and innermost frame.
    unhandled: Counter[str] = field(default_factory=Counter)
    # "phase: status" for each phase schemathesis finished (fuzzing and stateful repeat).
    phases: Counter[str] = field(default_factory=Counter)
    seeds: list[int] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "requests": self.requests,
            "server_errors": sum(n for s, n in self.statuses.items() if s >= 500),
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "server_error_operations": dict(self.server_errors.most_common()),
            "check_failures": dict(self.check_failures.most_common()),
            "unhandled_in_server_log": dict(self.unhandled.most_common()),
            "phases": dict(sorted(self.phases.items())),
            "runs": len(self.seeds),
            "seeds": self.seeds,
            "seconds": round(self.seconds, 1),
        }


def _create_key(data_dir: Path, role: str) -> str:
    """The role's key in the server's store, made in this process as `engram keys create`
    makes it (the same service and store; a CLI run costs a fresh interpreter, ~1 s CPU)."""
    from engram.container import build
    from engram.domain.models import Role
    from engram.settings import Settings

    engram = build(Settings(data_dir=data_dir, backend="sqlite"))
    groups = ("g1",) if role == "writer" else ()
    return engram.keys.create("fuzz", f"fuzz-{role}", frozenset({Role(role)}), groups)[1]


def read_report(path: Path, run: RoleRun) -> None:
    """Add one NDJSON report's interactions and check results to ``run``."""
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            event = json.loads(line)
            phase = event.get("PhaseFinished")
            if phase and phase["phase"]["name"] in PHASES.split(","):
                run.phases[f"{phase['phase']['name']}: {phase['status']}"] += 1
            finished = event.get("ScenarioFinished")
            if not finished:
                continue
            recorder = finished.get("recorder") or {}
            label = str(recorder.get("label", "?"))
            for interaction in (recorder.get("interactions") or {}).values():
                response = interaction.get("response")
                run.requests += 1
                if response is None:  # a network error: schemathesis records no status
                    run.statuses[0] += 1
                    continue
                status = int(response["status_code"])
                run.statuses[status] += 1
                if status >= 500:
                    run.server_errors[f"{label} -> {status}"] += 1
            for checks in (recorder.get("checks") or {}).values():
                for check in checks:
                    if check.get("status") == "failure":
                        run.check_failures[str(check["name"])] += 1


def read_server_log(path: Path, run: RoleRun) -> None:
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if '"unhandled error"' not in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        frames = record.get("frames") or ["?"]
        run.unhandled[f"{record.get('error_type')} at {frames[-1]}"] += 1


def fuzz_role(
    role: str,
    requests: int,
    max_time: int,
    workdir: Path,
    seed: int = 1,
    workers: int = 2,
    max_examples: int | None = None,
    start_after: float = 0,
) -> RoleRun:
    """At least ``requests`` schemathesis requests as ``role`` against a fresh server (or ``max_time`` spent).

    With ``max_examples`` (cases per operation and phase) schemathesis makes one pass of
    every phase, stateful included, however slow the machine; ``max_time`` then only
    bounds the wait.
    """
    run = RoleRun(role)
    data_dir = workdir / f"data-{role}"
    time.sleep(start_after)  # servers started side by side on a busy machine come up slowly
    # A loaded machine (the suite beside it) can take a minute to start a server.
    with engram_server(data_dir, ready_within=180) as (url, _admin, _pid):
        key = _create_key(data_dir, role)
        started = time.monotonic()  # the budget is for fuzzing, not for starting the server
        while run.requests < requests:
            left = max_time - (time.monotonic() - started)
            if left < 10:
                break
            # Guess the time the remaining requests need from the rate so far (the first run
            # gets the whole budget); schemathesis keeps fuzzing until its time is spent.
            rate = run.requests / max(run.seconds, 1.0) if run.requests else 0.0
            budget = int(min(left, (requests - run.requests) / rate * 1.1 + 15)) if rate else int(left)
            # In chunks, so that a run stops soon after its count is reached on a slow machine.
            budget = min(budget, CHUNK_SECONDS)
            report_dir = workdir / f"report-{role}-{len(run.seeds)}"
            cmd = [
                str(Path(sys.executable).with_name("st")),
                "run",
                str(DOC),
                "--url",
                url,
                "--header",
                f"Authorization: Bearer {key}",
                "--checks",
                "all",
                "--phases",
                PHASES,
                # With a per-operation cap, one pass of every phase (the suite's short run);
                # otherwise a time budget, in which fuzzing and stateful testing repeat.
                *(["--max-examples", str(max_examples)] if max_examples else ["--max-time", str(max(budget, 10))]),
                "--workers",
                str(workers),
                "--seed",
                str(seed + len(run.seeds)),
                "--suppress-health-check",
                "all",
                "--request-timeout",
                "30",
                "--report",
                "ndjson",
                "--report-dir",
                str(report_dir),
                "--no-color",
            ]
            t = time.monotonic()
            with (workdir / f"st-{role}.log").open("ab") as log:
                # Exit code 1 means "some check failed"; the report says which, and we count it.
                subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, timeout=budget + 300, check=False)
            if max_examples:
                run.seconds += time.monotonic() - t
                run.seeds.append(seed)
                for report in sorted(report_dir.glob("*.ndjson")):
                    read_report(report, run)
                break
            run.seconds += time.monotonic() - t
            run.seeds.append(seed + len(run.seeds))
            for report in sorted(report_dir.glob("*.ndjson")):
                read_report(report, run)
    read_server_log(data_dir / "server.log", run)
    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--requests", type=int, default=20_000, help="At least this many requests per role.")
    ap.add_argument("--max-time", type=int, default=1800, help="Seconds per role at most.")
    ap.add_argument("--roles", default=",".join(ROLES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2, help="Schemathesis workers (concurrent requests).")
    ap.add_argument("--no-write", action="store_true", help="Print only; keep bench/results/fuzz.json.")
    args = ap.parse_args(argv)
    roles = args.roles.split(",")
    # One server per role, side by side: each is one process, so two use both cores.
    # The work is in subprocesses (st, engram serve); threads only wait for them.
    with tempfile.TemporaryDirectory(prefix="engram-fuzz-") as tmp, ThreadPoolExecutor(len(roles)) as pool:
        done = pool.map(
            lambda n_role: fuzz_role(
                n_role[1], args.requests, args.max_time, Path(tmp), args.seed, args.workers, start_after=20 * n_role[0]
            ),
            enumerate(roles),
        )
        runs = [run.as_dict() for run in done]
    for run in runs:
        print(json.dumps(run, indent=2), flush=True)
    data = {
        "tool": "schemathesis " + _st_version(),
        "checks": "all",
        "phases": PHASES,
        "requests_per_role_target": args.requests,
        "roles": runs,
    }
    if not args.no_write:
        print(f"wrote {write_results('fuzz', data)}")
    short = [r["role"] for r in runs if r["requests"] < args.requests]
    errors = sum(r["server_errors"] + sum(r["unhandled_in_server_log"].values()) for r in runs)
    print(f"5xx responses: {errors}; roles short of {args.requests} requests: {short or 'none'}")
    return 1 if errors or short else 0


def _st_version() -> str:
    from importlib.metadata import version

    return version("schemathesis")


if __name__ == "__main__":
    raise SystemExit(main())
