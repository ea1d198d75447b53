"""What semantic dedup adds to a write (issue #17, item 6), on the embedded store.

A user with 100 entries; 60 writes to new keys (each is compared) with the agent's
``semanticDedup`` on and off, with the hashing and the MiniLM embedder. Prints p50/p95
per case, and the mean CPU time of a write (``time.process_time``: on a busy machine
wall time is mostly waiting for a core). Timings are noisy on a shared machine: compare
the cases of one run.

    python -m bench.dedup_latency
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from engram.container import build
from engram.domain.agent_config import AgentConfig, SemanticDedupConfig, UserMemoryConfig
from engram.domain.models import Principal, Role
from engram.service.memory import UpsertCommand
from engram.settings import Settings

AGENT = Principal("t1", "agent-a", frozenset({Role.WRITER}))


def run(embedder_name: str, enabled: bool, n: int = 60) -> tuple[list[float], float]:
    """Wall milliseconds of each write, and the mean CPU milliseconds of one."""
    engram = build(Settings(data_dir=Path(tempfile.mkdtemp()), embedder=embedder_name))
    umc = UserMemoryConfig(semantic_dedup=SemanticDedupConfig(enabled=enabled))
    engram.agents.put("t1", "agent-a", AgentConfig(user_memory_config=umc))
    p = AGENT
    for i in range(100):
        engram.memory.upsert(p, "u1", [UpsertCommand(f"topic_{i}_note", f"value number {i} about thing {i * 7}")])
    engram.sync_index()
    out = []
    cpu = 0.0
    for i in range(n):
        t, c = time.perf_counter(), time.process_time()
        engram.memory.upsert(p, "u1", [UpsertCommand(f"new_key_{i}", f"a new fact {i}")])
        out.append((time.perf_counter() - t) * 1000)
        cpu += time.process_time() - c
    return out, cpu * 1000 / n


def main() -> None:
    for emb in ("hash", "minilm"):
        for enabled in (False, True):
            wall, cpu = run(emb, enabled)
            xs = sorted(wall)
            p50, p95 = statistics.median(xs), xs[int(0.95 * len(xs))]
            print(f"{emb:6} dedup={'on ' if enabled else 'off'} p50={p50:6.2f} ms p95={p95:6.2f} ms cpu={cpu:6.2f} ms")


if __name__ == "__main__":
    main()
