"""Recall latency with episodic memory: users of 100, 1,000 and 10,000 messages.

Each user's history is the turns of bench/conv_data.py conversations (repeated with
fresh ids to reach 10,000), stored as thread messages with their session dates and
indexed as the extraction worker indexes them. Timed: ``RecallService.recall_with_vector``
in process (two index searches, a third when the question names a time, the store and
message reads, tier 1, the ranking, rendering), with ``topK`` 20; the query embedding is
timed apart. Goal at 1,000 messages per user: p50 under 5 ms on 2 cores. Both wall time
and the calling thread's CPU time are reported: on a shared machine under load the wall
time mostly measures the wait for a core.

Document vectors come from the hashing embedder (the recall path's cost does not depend
on what the vectors hold, only on their number and size, 384 for both); MiniLM's query
embedding is timed on its own.

Run: ``python -m bench.episodic_latency [--calls 300]``
"""

from __future__ import annotations

import argparse
import logging
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engram.adapters.hashing_embedder import HashingEmbedder
from engram.container import build
from engram.domain.conversation import (
    MessageRole,
    NewMessage,
    ThreadKey,
    message_doc_id,
    message_search_text,
    speaker_of,
)
from engram.domain.ranking import weights_for
from engram.ports import DocKind, IndexDocument
from engram.service.recall import RecallRequest
from engram.settings import Settings

from bench.common import percentiles, time_calls, write_results
from bench.conv_data import generate
from bench.conv_eval import AGENT, TENANT, StepClock, principal

SIZES = (100, 1000, 10_000)
GOAL_P50_MS = 5.0


def run(calls: int, weights: str = "hash") -> dict[str, Any]:
    convs = generate(3)
    turns = [t for c in convs for t in c.turns]
    questions = [q.text for c in convs for q in c.questions]
    embedder = HashingEmbedder()
    clock = StepClock(datetime(2024, 1, 1, tzinfo=UTC))
    engram = build(
        Settings(data_dir=Path(tempfile.mkdtemp(prefix="engram-episodic-")), extraction_worker="inline"),
        embedder=embedder,
        clock=clock,
    )
    if weights == "minilm":
        # MiniLM's ranking (speaker part, context lift) on the same vectors: what the
        # ranking costs with the default embedder's weights.
        engram.recall.weights = weights_for("all-MiniLM-L6-v2")
    feature = engram.conversation
    assert feature is not None
    p = principal()
    out: dict[str, Any] = {"sizes": {}, "goal_p50_ms_at_1000": GOAL_P50_MS, "weights": weights}
    for size in SIZES:
        user = f"user-{size}"
        engram.users.update_profile(p, user, name="Sam")
        for start in range(0, size, 500):
            batch = [turns[i % len(turns)] for i in range(start, min(size, start + 500))]
            thread = f"t{start // 500}"
            msgs = [
                NewMessage(f"{t.id}-{start + j}", MessageRole(t.role), t.text, t.at, {"speaker": t.speaker})
                for j, t in enumerate(batch)
            ]
            stored = feature.repo.append(ThreadKey(TENANT, user, AGENT, thread), msgs, clock.at).messages
            texts = [message_search_text(m) for m in stored]
            vectors = embedder.embed(texts)
            engram.index.upsert(
                [
                    IndexDocument(
                        id=message_doc_id(m.agent_id, m.thread_id, m.id),
                        tenant_id=TENANT,
                        user_id=user,
                        kind=DocKind.MESSAGE,
                        text=text,
                        vector=v,
                        model_id=embedder.model_id,
                        visibility="self",
                        source_agent_id=AGENT,
                        thread_id=m.thread_id,
                        category=m.role.value,
                        updated_at=m.created_at,
                        occurred_at=m.timestamp,
                        speaker=speaker_of(m),  # as the extraction worker indexes it
                    )
                    for m, text, v in zip(stored, texts, vectors, strict=True)
                ]
            )
        vecs = embedder.embed(questions)
        request = RecallRequest("x", top_k=20)

        def once(i: int, user: str = user, vecs: list[list[float]] = vecs, request: RecallRequest = request) -> object:
            q = questions[i % len(questions)]
            return engram.recall.recall_with_vector(p, user, replace(request, message=q), vecs[i % len(vecs)])

        samples = time_calls(once, calls, warmup=20)
        # CPU time of this thread per call: on a shared, overloaded machine the wall time
        # mostly measures waiting for a core; the CPU time is what the call costs.
        cpu: list[float] = []
        process_start = time.process_time()
        for i in range(calls):
            t = time.thread_time()
            once(i)
            cpu.append((time.thread_time() - t) * 1000)
        # The whole process's CPU over those calls, background threads included (the
        # access statistics writer): the figure to divide two cores by.
        process_ms = (time.process_time() - process_start) * 1000 / calls
        last = engram.recall.recall_with_vector(p, user, replace(request, message=questions[0]), vecs[0])
        handler = _through_handler(engram, user, questions, calls)
        out["sizes"][str(size)] = {
            "wall": percentiles(samples),
            "cpu": percentiles(cpu),
            "process_cpu_ms_per_call": round(process_ms, 3),
            # The same recall as an API request: the Lambda handler (Powertools resolver,
            # validation, the JSON answer) in front of the service, query embedding included.
            "handler_process_cpu_ms_per_call": handler,
            "episodes_returned_example": len(last.episodes),
        }
        row = out["sizes"][str(size)]
        print(
            f"{size:>6} messages: wall p50 {row['wall']['p50_ms']:.2f} ms, CPU p50 {row['cpu']['p50_ms']:.2f} ms "
            f"(calling thread), process CPU {process_ms:.2f} ms per recall, "
            f"{row['handler_process_cpu_ms_per_call']:.2f} ms per POST /recall through the handler; "
            f"goal p50 under {GOAL_P50_MS} ms at 1,000",
            flush=True,
        )
    try:
        from engram.adapters.minilm_embedder import MiniLMEmbedder

        minilm = MiniLMEmbedder()
        minilm.embed(["warm up"])
        out["minilm_query_embedding"] = percentiles(
            time_calls(lambda i: minilm.embed([questions[i % len(questions)]]), min(calls, 200), warmup=5)
        )
        cpu_embed = []
        process_start = time.process_time()
        n = min(calls, 200)
        for i in range(n):
            t = time.thread_time()
            minilm.embed([questions[i % len(questions)]])
            cpu_embed.append((time.thread_time() - t) * 1000)
        # onnxruntime may use threads of its own (one by default since #14): the calling
        # thread's share, and the whole process's CPU per query.
        out["minilm_query_embedding_cpu_calling_thread"] = percentiles(cpu_embed)
        out["minilm_query_embedding_process_cpu_ms"] = round((time.process_time() - process_start) * 1000 / n, 3)
        out["minilm_threads"] = minilm._threads
    except Exception as exc:  # the semantic packages missing: say so, time the rest
        out["minilm_query_embedding"] = {"error": type(exc).__name__}
    return out


def _through_handler(engram: Any, user: str, questions: list[str], calls: int) -> float:
    """Process CPU per ``POST /recall`` through the in-process gateway and the real handler."""
    import json

    from engram.container import set_engram
    from engram.domain.models import Role
    from engram.local.gateway import LocalGateway

    set_engram(engram)
    key = engram.keys.create(TENANT, AGENT, frozenset({Role.VIEWER}))[1]
    gateway = LocalGateway(engram)
    headers = {"authorization": f"Bearer {key}", "content-type": "application/json"}

    def call(i: int) -> None:
        body = json.dumps({"message": questions[i % len(questions)], "topK": 20})
        reply = gateway.handle("POST", f"/v1/users/{user}/recall", headers=headers, body=body)
        assert reply.status == 200, reply.body

    for i in range(10):
        call(i)
    start = time.process_time()
    for i in range(calls):
        call(i)
    return round((time.process_time() - start) * 1000 / calls, 3)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument(
        "--weights", choices=("hash", "minilm"), default="hash", help="rank with this embedder's tuned weights"
    )
    args = parser.parse_args(argv)
    logging.disable(logging.INFO)
    import os

    # The machine is shared: what else ran is part of every figure (1, 5 and 15 minutes).
    before = os.getloadavg()
    out = run(args.calls, args.weights) | {"load_average_start": before, "load_average": os.getloadavg()}
    if "minilm_query_embedding_process_cpu_ms" in out:
        print(
            f"MiniLM query embedding: wall p50 {out['minilm_query_embedding']['p50_ms']:.2f} ms, "
            f"process CPU {out['minilm_query_embedding_process_cpu_ms']:.2f} ms per query"
        )
    print(f"load average: {out['load_average_start']} at the start, {out['load_average']} at the end")
    name = "episodic_latency" if args.weights == "hash" else f"episodic_latency_{args.weights}"
    print(f"wrote {write_results(name, out)}")


if __name__ == "__main__":
    main()
