"""Local server throughput under concurrent load: ``engram serve`` on loopback, driven hard.

Starts ``engram serve`` on 127.0.0.1 with a fresh data folder and the per-key rate limit
raised out of the way, seeds users, then runs bounded phases (a fixed duration each):

- ``recall``: ``POST /v1/users/{userId}/recall`` with rotating messages over seeded users;
- ``upsert``: ``PUT /v1/users/{userId}/memories`` rewriting a rotating set of keys
  (the users stay at a fixed size, every write supersedes an entry);
- ``tenants``: the same writes from six writer keys of three tenants at once, each with
  its own ``Idempotency-Key`` (as the Python client sends), to the same user ids in every
  tenant: the mixed-tenant write path, idempotency records included.

The load generator is ``wrk`` (C, one thread) when it is installed (``make bench``
installs it with apt-get where it can), otherwise an asyncio + httpx generator in this
file. wrk is preferred because on a 2-core machine the generator competes with the
server for the same cores, and wrk needs a fraction of the CPU httpx needs per request.
Every response must be a 200; any other status is counted and reported.

After the ``tenants`` phase every tenant's entries are read back: an entry of another
tenant fails the run. Besides requests/s, each phase records the server's CPU per request
(all its processes, from /proc) and the generator's: on a shared or busy machine
requests/s measures the wait for a core, CPU per request much less so.

The run writes ``bench/results/<--results>.json`` (default ``load``) and regenerates
docs/performance.md from every results file (``--no-report`` to leave it).

Goal: over 500 recall requests per second on a 2-core machine.
Run: ``.venv/bin/python -m bench.load [--seconds 10] [--connections 16] [--generator wrk|httpx]
[--results load_minilm]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from bench.common import percentiles, write_results

HOST = "127.0.0.1"  # loopback only: this benchmark never sends traffic anywhere else
USERS = 20
ENTRIES_PER_USER = 100
GOAL_RECALL_RPS = 500
MESSAGES = [
    "what is my favorite food?",
    "where do I live?",
    "what is my dog's name?",
    "which company do I work for?",
    "what do I do for fun on weekends?",
    "how do I take my coffee?",
    "when is my birthday?",
    "what music do I like?",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextmanager
def engram_server(
    data_dir: Path, extra_env: dict[str, str] | None = None, workers: int = 1, ready_within: float = 60
) -> Iterator[tuple[str, str, int]]:
    """``engram serve`` in a subprocess; yields (base url, admin key, pid) and always stops it."""
    port = free_port()
    env = {
        **os.environ,
        "ENGRAM_DATA_DIR": str(data_dir),
        "ENGRAM_BACKEND": "sqlite",
        # The default per-key limit (a few hundred per second) is a safety net for real
        # clients; here one key is the whole load.
        "ENGRAM_REQUESTS_PER_SECOND_PER_KEY": "1000000",
        **(extra_env or {}),
    }
    data_dir.mkdir(parents=True, exist_ok=True)
    engram = shutil.which("engram", path=str(Path(sys.executable).parent)) or "engram"
    log = (data_dir / "server.log").open("ab")
    cmd = [engram, "serve", "--host", HOST, "--port", str(port), "--workers", str(workers)]
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=log)
    url = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + ready_within
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"engram serve exited: {(data_dir / 'server.log').read_text()[-2000:]}")
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"engram serve did not come up within {ready_within:.0f} s")
            time.sleep(0.1)
        key = (data_dir / "admin-key").read_text(encoding="utf-8").strip()
        yield url, key, proc.pid
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def seed(url: str, key: str, users: int = USERS, entries: int = ENTRIES_PER_USER) -> float:
    """Every user gets ``entries`` memories through the API; returns the seconds it took."""
    from bench.eval_data import scale

    t0 = time.perf_counter()
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=30) as client:
        for n, facts in enumerate(scale(users, entries)):
            for f in facts:
                body = {"key": f.key, "value": f.value, "category": f.category, "importance": f.importance}
                r = client.put(f"/v1/users/load-{n}/memories", json=body)
                if r.status_code != 200:
                    raise RuntimeError(f"seeding failed: {r.status_code} {r.text[:300]}")
    return time.perf_counter() - t0


TENANTS = 3
AGENTS = 2
# More distinct recall messages than a run sends (a few thousand per phase at most).
UNIQUE_RECALLS = 20_000


@dataclass(frozen=True)
class Req:
    method: str
    path: str
    body: str
    key: int = 0  # which of the run's API keys sends it
    idempotent: bool = False  # a fresh Idempotency-Key on every send


def requests_for(phase: str, count: int = 400, unique: bool = False) -> list[Req]:
    """The requests a phase cycles through, the same for every generator.

    ``unique``: every recall message differs (a number is added), and there are enough of
    them that a run does not come round to the first again: what a server sees when no
    question repeats (nothing remembered per message can help)."""
    out = []
    if unique and phase == "recall":
        count = max(count, UNIQUE_RECALLS)
    for i in range(count):
        user = f"load-{i % USERS}"
        if phase == "recall":
            message = MESSAGES[i % len(MESSAGES)]
            body = {"message": f"{message} (question {i})" if unique else message, "topK": 5}
            out.append(Req("POST", f"/v1/users/{user}/recall", json.dumps(body)))
        elif phase == "tenants":
            # Key 0 is the admin key; 1.. are the writers of every tenant, interleaved.
            writer = 1 + i % (TENANTS * AGENTS)
            body = {"key": f"load_key_{i % 50}", "value": f"value number {i} of writer {writer}", "category": "fact"}
            out.append(Req("PUT", f"/v1/users/{user}/memories", json.dumps(body), writer, idempotent=True))
        else:
            body = {"key": f"load_key_{i % 50}", "value": f"value number {i}", "category": "fact"}
            out.append(Req("PUT", f"/v1/users/{user}/memories", json.dumps(body)))
    return out


def cross_tenant_entries(url: str, keys: list[str]) -> dict[str, int]:
    """After the ``tenants`` phase: every entry each tenant's first agent can list must be
    one its own tenant's writers wrote ("... of writer W"). Returns what was read and how
    many entries belonged to another tenant (or to the admin's seed data): 0 expected."""
    checked = foreign = 0
    with httpx.Client(base_url=url, timeout=30) as client:
        for t in range(TENANTS):
            writers = {1 + t * AGENTS + a for a in range(AGENTS)}
            headers = {"Authorization": f"Bearer {keys[1 + t * AGENTS]}"}
            for n in range(USERS):
                cursor: str | None = None
                while True:
                    params = {"limit": "200", **({"cursor": cursor} if cursor else {})}
                    r = client.get(f"/v1/users/load-{n}/memories", params=params, headers=headers)
                    if r.status_code != 200:
                        raise RuntimeError(f"cross-tenant check: HTTP {r.status_code} {r.text[:200]}")
                    page = r.json()
                    for item in page["items"]:
                        checked += 1
                        writer = item["value"].rsplit(" of writer ", 1)
                        foreign += not (len(writer) == 2 and writer[1].isdigit() and int(writer[1]) in writers)
                    cursor = page.get("nextCursor")
                    if not cursor:
                        break
    return {"entries_read_back": checked, "cross_tenant_entries": foreign}


def tenant_keys(data_dir: Path) -> list[str]:
    """A writer key for each agent of each tenant, made in the server's own store."""
    from engram.container import build
    from engram.domain.models import Role
    from engram.settings import Settings

    engram = build(Settings(data_dir=data_dir, backend="sqlite"))
    return [
        engram.keys.create(f"load-tenant-{t}", f"agent-{a}", frozenset({Role.WRITER}))[1]
        for t in range(TENANTS)
        for a in range(AGENTS)
    ]


WRK_SCRIPT = """
local reqs = {}
local i = 0
local run = tostring(os.time())
statuses = {}  -- a global of each thread's state, read back in done()
local threads = {}
function setup(thread)
  table.insert(threads, thread)
end
function init(args)
  local keys = {}
  for k in args[2]:gmatch("[^,]+") do keys[#keys + 1] = k end
  for line in io.lines(args[1]) do
    local method, path, key, idem, body = line:match("^(%S+)\\t(%S+)\\t(%d+)\\t(%d)\\t(.*)$")
    local headers = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. keys[tonumber(key) + 1]}
    if idem == "1" then
      reqs[#reqs + 1] = {method = method, path = path, headers = headers, body = body}
    else
      reqs[#reqs + 1] = wrk.format(method, path, headers, body)
    end
  end
end
function request()
  i = i + 1
  local r = reqs[(i % #reqs) + 1]
  if type(r) == "string" then return r end
  -- A fresh Idempotency-Key per send, as a client sends one per write.
  r.headers["Idempotency-Key"] = run .. "-" .. tostring(i) .. "-" .. tostring(math.random(1e9))
  return wrk.format(r.method, r.path, r.headers, r.body)
end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
function done(summary, latency, requests)
  local p = {}
  for _, q in ipairs({50, 90, 95, 99, 99.9}) do p[#p + 1] = string.format('"%s": %.3f', q, latency:percentile(q) / 1000) end
  local st = {}
  for _, t in ipairs(threads) do
    for code, n in pairs(t:get("statuses")) do st[#st + 1] = string.format('"%d": %d', code, n) end
  end
  io.write(string.format('WRKJSON {"statuses": {%s}, "requests": %d, "duration_s": %.3f, "non_2xx": %d, "socket_errors": %d, ' ..
    '"mean_ms": %.3f, "max_ms": %.3f, "percentiles_ms": {%s}}\\n',
    table.concat(st, ", "), summary.requests, summary.duration / 1e6, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency.mean / 1000, latency.max / 1000, table.concat(p, ", ")))
end
"""


def run_wrk(
    url: str, keys: list[str], phase: str, seconds: int, connections: int, workdir: Path, unique: bool = False
) -> dict[str, Any]:
    script = workdir / "engram.lua"
    script.write_text(WRK_SCRIPT, encoding="utf-8")
    reqs = workdir / f"{phase}.tsv"
    lines = (
        f"{r.method}\t{r.path}\t{r.key}\t{int(r.idempotent)}\t{r.body}\n" for r in requests_for(phase, unique=unique)
    )
    reqs.write_text("".join(lines), encoding="utf-8")
    cmd = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", str(script), url, "--"]
    out = subprocess.run(
        [*cmd, str(reqs), ",".join(keys)], capture_output=True, text=True, timeout=seconds + 60, check=True
    )
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("WRKJSON "))
    raw = json.loads(line.removeprefix("WRKJSON "))
    p = raw["percentiles_ms"]
    return {
        "generator": "wrk",
        "requests": raw["requests"],
        "seconds": raw["duration_s"],
        "rps": round(raw["requests"] / raw["duration_s"], 1),
        "non_2xx": raw["non_2xx"],
        "statuses": raw["statuses"],
        "socket_errors": raw["socket_errors"],
        "latency_ms": {
            "p50_ms": p["50"],
            "p90_ms": p["90"],
            "p95_ms": p["95"],
            "p99_ms": p["99"],
            "mean_ms": raw["mean_ms"],
        },
    }


def run_httpx(
    url: str, keys: list[str], phase: str, seconds: int, connections: int, unique: bool = False
) -> dict[str, Any]:
    reqs = requests_for(phase, unique=unique)
    auth = [{"Authorization": f"Bearer {k}", "Content-Type": "application/json"} for k in keys]

    async def main() -> tuple[list[float], int, float]:
        latencies: list[float] = []
        bad = 0
        limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
        async with httpx.AsyncClient(base_url=url, limits=limits, timeout=10) as client:
            t0 = time.perf_counter()
            stop = t0 + seconds

            async def worker(w: int) -> None:
                nonlocal bad
                i = w
                while time.perf_counter() < stop:
                    req = reqs[i % len(reqs)]
                    i += connections
                    headers = auth[req.key]
                    if req.idempotent:
                        headers = {**headers, "Idempotency-Key": uuid.uuid4().hex}
                    s = time.perf_counter()
                    r = await client.request(req.method, req.path, content=req.body, headers=headers)
                    latencies.append((time.perf_counter() - s) * 1000)
                    bad += r.status_code != 200

            await asyncio.gather(*(worker(w) for w in range(connections)))
            return latencies, bad, time.perf_counter() - t0

    latencies, bad, elapsed = asyncio.run(main())
    return {
        "generator": "httpx",
        "requests": len(latencies),
        "seconds": round(elapsed, 3),
        "rps": round(len(latencies) / elapsed, 1),
        "non_2xx": bad,
        "socket_errors": 0,
        "latency_ms": percentiles(latencies),
    }


def server_cpu_seconds(pid: int) -> float:
    """User + system CPU of the server and its worker processes so far (Linux /proc)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended while we looked
        if stat.parent.name == str(pid) or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _generator_cpu_seconds() -> float:
    """CPU of this process and of its finished children (wrk runs as one)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description="engram serve under concurrent load (loopback only)")
    ap.add_argument("--seconds", type=int, default=10, help="duration of each phase")
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--generator", choices=["auto", "wrk", "httpx"], default="auto")
    ap.add_argument("--phases", default="recall,upsert,tenants")
    ap.add_argument(
        "--unique-messages",
        action="store_true",
        help="every recall message differs (no question repeats; by default 8 messages rotate)",
    )
    ap.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="engram serve processes (default: one per core)"
    )
    ap.add_argument(
        "--results",
        default="load",
        help="results file under bench/results (docs/performance.md reads load and load_minilm)",
    )
    ap.add_argument("--no-report", action="store_true", help="do not rewrite docs/performance.md")
    args = ap.parse_args(argv)
    generator = args.generator
    if generator == "auto":
        generator = "wrk" if shutil.which("wrk") else "httpx"
    results: dict[str, Any] = {
        "generator": generator,
        "connections": args.connections,
        "server_workers": args.workers,
        "embedder": os.environ.get("ENGRAM_EMBEDDER", "minilm"),
        "recall_messages": "unique" if args.unique_messages else f"{len(MESSAGES)} rotating",
        "phases": {},
    }
    with tempfile.TemporaryDirectory(prefix="engram-load-") as tmp:
        work = Path(tmp)
        with engram_server(work / "data", workers=args.workers) as (url, key, pid):
            keys = [key, *tenant_keys(work / "data")]
            results["seed"] = {
                "users": USERS,
                "entries_per_user": ENTRIES_PER_USER,
                "seconds": round(seed(url, key), 2),
            }
            for phase in args.phases.split(","):
                # A short warm-up so lazy imports and caches are not part of the figure.
                run_httpx(url, keys, phase, 1, 2)
                cpu0 = server_cpu_seconds(pid)
                gen0 = _generator_cpu_seconds()
                if generator == "wrk":
                    r = run_wrk(url, keys, phase, args.seconds, args.connections, work, args.unique_messages)
                else:
                    r = run_httpx(url, keys, phase, args.seconds, args.connections, args.unique_messages)
                cpu = server_cpu_seconds(pid) - cpu0
                # The generator shares the cores with the server: what it spent is reported too.
                r["generator_cpu_ms_per_request"] = round(
                    1000 * (_generator_cpu_seconds() - gen0) / max(r["requests"], 1), 3
                )
                if phase == "tenants":
                    r.update(cross_tenant_entries(url, keys))
                r["server_cpu_share"] = round(cpu / r["seconds"], 2)
                # What a request costs the server, whatever else the machine runs: on a
                # shared, busy machine requests/s measures the wait for a core as much as
                # the server, this does not (much).
                r["server_cpu_ms_per_request"] = round(1000 * cpu / max(r["requests"], 1), 3)
                results["phases"][phase] = r
    # Timings move with whatever else the machine runs: keep how busy it was.
    results["load_average_1m"] = round(os.getloadavg()[0], 2)
    # The requests/s two cores would serve at this CPU cost if the server had them to itself.
    if "recall" in results["phases"]:
        per = results["phases"]["recall"]["server_cpu_ms_per_request"]
        results["recall_rps_on_2_idle_cores_at_this_cpu"] = round(2000 / per, 1) if per else None
    recall = results["phases"].get("recall")
    results["goal_recall_rps"] = GOAL_RECALL_RPS
    results["goal_met"] = None if recall is None else recall["rps"] >= GOAL_RECALL_RPS and recall["non_2xx"] == 0
    if results["phases"].get("tenants", {}).get("cross_tenant_entries"):
        results["goal_met"] = False  # an answer of another tenant fails the run, however fast
    print(
        f"engram serve --workers {args.workers} on {HOST}, {args.connections} connections, "
        f"{args.seconds} s per phase, generator {generator}"
    )
    for phase, r in results["phases"].items():
        lat = r["latency_ms"]
        print(
            f"  {phase:7} {r['rps']:8.1f} req/s  p50 {lat['p50_ms']:7.2f} ms  p95 {lat['p95_ms']:7.2f} ms  "
            f"p99 {lat['p99_ms']:7.2f} ms  non-200 {r['non_2xx']}  server CPU {r['server_cpu_share']} cores, "
            f"{r['server_cpu_ms_per_request']} ms per request; generator {r['generator_cpu_ms_per_request']} ms"
            + (
                f"; {r['entries_read_back']} entries read back, {r['cross_tenant_entries']} of another tenant"
                if "cross_tenant_entries" in r
                else ""
            )
        )
    print(f"  goal: recall over {GOAL_RECALL_RPS} req/s: {results['goal_met']}")
    if results.get("recall_rps_on_2_idle_cores_at_this_cpu"):
        print(
            f"  at {results['phases']['recall']['server_cpu_ms_per_request']} ms of server CPU per recall, "
            f"two idle cores would serve at most {results['recall_rps_on_2_idle_cores_at_this_cpu']} recalls/s"
        )
    print(f"  load average (1 min) at the end: {results['load_average_1m']}")
    path = write_results(args.results, results)
    print(f"  -> {path}")
    if not args.no_report:
        from bench import report

        # docs/performance.md is generated from every results file: this run's figures
        # reach it in the same step that measured them.
        print(f"  -> {report.main()}")
    return results


if __name__ == "__main__":
    main()
