"""What serialising the API resolver costs a process: one call at a time vs. all at once.

Powertools' resolver keeps the request it resolves in state every thread shares, so the
``api`` handler lets one call in at a time (docs/security.md). This measures what that
costs, in one process as ``engram serve`` runs it: 16 threads call the local gateway,
alternating short windows in which the handler is the serialised one and windows in
which it is the bare handler underneath (unsafe: answers may cross, which is the bug;
its throughput is the most a request-scoped resolver could reach). Alternating windows
share whatever else the machine is doing. It reports requests per second and the CPU
time the process spent per request: on a machine shared with other work, a process with
sixteen runnable threads is handed more of the CPU than one with a single runnable
thread, so requests per second alone flatter the unsafe variant; CPU per request does not.

Run: ``.venv/bin/python -m bench.serialised_resolver [--windows 6] [--seconds 2]``
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import write_results
from bench.load import MESSAGES

THREADS = 16
USERS = 10
ENTRIES = 50


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--windows", type=int, default=6, help="windows per variant")
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one window")
    ap.add_argument("--write-every", type=int, default=4, help="every Nth request an upsert (0: recalls only)")
    args = ap.parse_args(argv)

    from engram.container import build, set_engram
    from engram.domain.models import Role
    from engram.handlers import api as api_handler
    from engram.local.gateway import LocalGateway
    from engram.settings import Settings

    with tempfile.TemporaryDirectory(prefix="engram-serial-") as tmp:
        engram = build(Settings(data_dir=Path(tmp), requests_per_second_per_key=1e9))
        set_engram(engram)
        gateway = LocalGateway(engram)
        key = engram.keys.create("bench", "agent", frozenset({Role.WRITER}))[1]
        headers = {"authorization": f"Bearer {key}", "content-type": "application/json"}
        for u in range(USERS):
            for i in range(ENTRIES):
                body = json.dumps({"key": f"k{i}", "value": f"user {u} fact {i} about {MESSAGES[i % len(MESSAGES)]}"})
                assert gateway.handle("PUT", f"/v1/users/b{u}/memories", headers=headers, body=body).status == 200

        serialised = api_handler.handler
        bare = serialised.__wrapped__  # type: ignore[attr-defined]  # functools.wraps keeps it
        counts = {"serialised": 0, "bare": 0}
        errors = {"serialised": 0, "bare": 0}
        cpu = {"serialised": 0.0, "bare": 0.0}
        mode = {"name": "serialised"}
        stop = threading.Event()

        def client(n: int) -> None:
            i = n
            while not stop.is_set():
                name = mode["name"]
                if args.write_every and i % args.write_every == args.write_every - 1:
                    body = json.dumps({"key": f"w{n}", "value": f"write {i}"})
                    reply = gateway.handle("PUT", f"/v1/users/b{i % USERS}/memories", headers=headers, body=body)
                else:
                    body = json.dumps({"message": MESSAGES[i % len(MESSAGES)], "topK": 5})
                    reply = gateway.handle("POST", f"/v1/users/b{i % USERS}/recall", headers=headers, body=body)
                if mode["name"] == name:  # count only requests that ran within one window
                    counts[name] += 1
                    errors[name] += reply.status != 200
                i += THREADS

        threads = [threading.Thread(target=client, args=(n,)) for n in range(THREADS)]
        for t in threads:
            t.start()
        try:
            for w in range(2 * args.windows):
                mode["name"] = "serialised" if w % 2 == 0 else "bare"
                api_handler.handler = serialised if w % 2 == 0 else bare
                cpu0 = time.process_time()
                time.sleep(args.seconds)
                cpu[mode["name"]] += time.process_time() - cpu0
        finally:
            stop.set()
            for t in threads:
                t.join()
            api_handler.handler = serialised
            set_engram(None)

    seconds = args.windows * args.seconds
    results: dict[str, Any] = {
        "threads": THREADS,
        "mix": f"1 upsert in {args.write_every}" if args.write_every else "recalls only",
        "windows_per_variant": args.windows,
        "window_seconds": args.seconds,
        "serialised_rps": round(counts["serialised"] / seconds, 1),
        "bare_rps": round(counts["bare"] / seconds, 1),
        "serialised_non_200": errors["serialised"],
        "bare_non_200": errors["bare"],
        # CPU of the whole process (handler threads and background writers) per request:
        # what a request costs whatever share of the machine the process gets.
        "serialised_cpu_ms_per_request": round(1000 * cpu["serialised"] / max(counts["serialised"], 1), 2),
        "bare_cpu_ms_per_request": round(1000 * cpu["bare"] / max(counts["bare"], 1), 2),
        "serialised_cores": round(cpu["serialised"] / seconds, 2),
        "bare_cores": round(cpu["bare"] / seconds, 2),
    }
    results["serialised_vs_bare"] = round(results["serialised_rps"] / max(results["bare_rps"], 0.1), 3)
    print(json.dumps(results, indent=2))
    print(f"  -> {write_results('serialised_resolver', results)}")
    return results


if __name__ == "__main__":
    main()
