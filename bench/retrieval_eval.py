"""Retrieval quality of recall: recall@5 and MRR@10 for BM25-only, vector-only and hybrid.

Builds the generated evaluation (bench/eval_data.py) through the real write pipeline
and index, per embedder (hash, minilm). The hybrid's fusion weights and minimum score
are tuned on the training users only; every figure is then reported on the held-out
test users too, and the hybrid on the test users comes from the real
``RecallService`` (not the tuning code's re-implementation of the score).

Run: ``.venv/bin/python -m bench.retrieval_eval [--users 60] [--embedders hash,minilm]``
"""

from __future__ import annotations

import argparse
import itertools
import logging
import tempfile
import time
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from engram.container import Engram, build
from engram.domain.agent_config import AgentConfig, Guardrails, UserMemoryConfig
from engram.domain.models import Principal, Role
from engram.domain.policies import VisibilityScope
from engram.domain.ranking import HybridWeights
from engram.ports import DocKind, Embedder, SearchQuery
from engram.service.access import Access
from engram.service.memory import UpsertCommand
from engram.service.recall import CANDIDATES_PER_ITEM, MIN_CANDIDATES, RecallRequest, RecallService
from engram.settings import Settings

from bench.common import write_results
from bench.eval_data import Query, UserData, check, generate

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
TENANT = "eval"
AGENT = "agent-eval"
TOP_K = 10
CANDIDATES = max(TOP_K * CANDIDATES_PER_ITEM, MIN_CANDIDATES)


class SetClock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def now(self) -> datetime:
        self.at += timedelta(microseconds=1)
        return self.at


class DiscardAccess:
    """The evaluation must not change what it measures: no access statistics."""

    def record(self, access: Access) -> None:
        return None


def make_embedder(name: str) -> Embedder:
    if name == "minilm":
        from engram.adapters.minilm_embedder import MiniLMEmbedder

        return MiniLMEmbedder()
    from engram.adapters.hashing_embedder import HashingEmbedder

    return HashingEmbedder()


def principal() -> Principal:
    return Principal(TENANT, AGENT, frozenset({Role.WRITER}))


def build_corpus(embedder: Embedder, data: list[UserData], data_dir: Path) -> tuple[Engram, SetClock]:
    clock = SetClock(NOW)
    engram = build(Settings(data_dir=data_dir), embedder=embedder, clock=clock)
    categories = ("preference", "fact", "context", "event", "feeling")
    engram.agents.put(
        TENANT,
        AGENT,
        AgentConfig(
            user_memory_config=UserMemoryConfig(
                max_entries_per_user=100_000,
                max_recall_entries=1000,
                guardrails=Guardrails(allowed_categories=categories, max_writes_per_turn=1000),
            )
        ),
    )
    # Index in batches at the end, as a bulk import would: one embedding call per 500
    # entries instead of one per write (same documents, a fraction of the time).
    engram.store.db.stop_notifying()  # type: ignore[attr-defined]
    p = principal()
    for u in data:
        # Oldest first, so an old value is written before the one that supersedes it.
        for f in sorted(u.facts, key=lambda f: -f.age_days):
            clock.at = NOW - timedelta(days=f.age_days)
            cmd = UpsertCommand(f.key, f.value, f.category, importance=f.importance, confidence=f.confidence)
            engram.memory.upsert(p, u.user_id, [cmd])
    clock.at = NOW
    engram.sync_index()
    return engram, clock


@dataclass
class Candidates:
    """Every candidate of every query, flattened, queries contiguous."""

    qid: npt.NDArray[np.int64]
    keyword: npt.NDArray[np.float64]
    semantic: npt.NDArray[np.float64]
    importance: npt.NDArray[np.float64]
    confidence: npt.NDArray[np.float64]
    age_days: npt.NDArray[np.float64]
    id_order: npt.NDArray[np.int64]  # rank of the entry id within its query (tie-break)
    target: npt.NDArray[np.bool_]
    starts: npt.NDArray[np.int64]
    queries: list[Query]

    def subset(self, keep: list[int]) -> Candidates:
        mask = np.isin(self.qid, keep)
        remap = {q: i for i, q in enumerate(keep)}
        qid = np.array([remap[int(q)] for q in self.qid[mask]], dtype=np.int64)
        starts = np.searchsorted(qid, np.arange(len(keep)))
        return Candidates(
            qid,
            self.keyword[mask],
            self.semantic[mask],
            self.importance[mask],
            self.confidence[mask],
            self.age_days[mask],
            self.id_order[mask],
            self.target[mask],
            starts,
            [self.queries[i] for i in keep],
        )


def collect(engram: Engram, data: list[UserData]) -> Candidates:
    queries = [q for u in data for q in u.queries]
    vectors = engram.embedder.embed([q.text for q in queries])
    current: dict[tuple[str, str], str] = {}
    rows: list[tuple[int, float, float, int, float, float, str, bool]] = []
    scope = VisibilityScope(AGENT)
    for qi, (q, vec) in enumerate(zip(queries, vectors, strict=True)):
        hits = engram.index.search(
            SearchQuery(
                TENANT,
                q.user_id,
                NOW,
                text=q.text,
                vector=vec,
                scope=scope,
                kinds=(DocKind.MEMORY,),
                k=CANDIDATES,
                model_id=engram.embedder.model_id,
            )
        )
        entries = {e.id: e for e in engram.store.get_entries(TENANT, q.user_id, [h.id for h in hits])}
        for h in sorted(hits, key=lambda h: h.id):
            e = entries.get(h.id)
            if e is None or not e.is_live(NOW):
                continue
            key = (q.user_id, e.key)
            current[key] = e.id
            fresh = max(d for d in (e.updated_at, e.last_reinforced_at, e.last_accessed_at) if d is not None)
            age = (NOW - fresh).total_seconds() / 86400
            is_target = q.target_key is not None and e.key == q.target_key
            rows.append((qi, h.keyword, h.semantic, e.importance, e.confidence, age, e.id, is_target))
    qid = np.array([r[0] for r in rows], dtype=np.int64)
    id_order = np.zeros(len(rows), dtype=np.int64)
    for q in range(len(queries)):
        idx = np.nonzero(qid == q)[0]
        for rank_, i in enumerate(sorted(idx, key=lambda i: rows[i][6])):
            id_order[i] = rank_
    return Candidates(
        qid,
        np.array([r[1] for r in rows]),
        np.array([r[2] for r in rows]),
        np.array([r[3] for r in rows], dtype=np.float64),
        np.array([r[4] for r in rows]),
        np.array([r[5] for r in rows]),
        id_order,
        np.array([r[7] for r in rows], dtype=bool),
        np.searchsorted(qid, np.arange(len(queries))),
        queries,
    )


def totals(c: Candidates, w: HybridWeights) -> npt.NDArray[np.float64]:
    """domain.ranking.score, vectorised (the service's numbers are checked against it)."""
    n_q = len(c.queries)
    best = np.zeros(n_q)
    np.maximum.at(best, c.qid, c.keyword)
    kw = np.where(c.keyword > 0, np.minimum(1.0, c.keyword / np.maximum(best[c.qid], w.keyword_floor)), 0.0)
    sem = np.clip(c.semantic, 0.0, 1.0)
    rel = w.semantic * sem + (1 - w.semantic) * kw
    mix = w.importance + w.recency + w.confidence
    rec = 0.5 ** (c.age_days / w.recency_half_life_days)
    prior = (w.importance * c.importance / 100 + w.recency * rec + w.confidence * c.confidence) / mix
    return np.asarray(rel * ((1 - w.prior_share) + w.prior_share * prior))


def target_ranks(c: Candidates, total: npt.NDArray[np.float64], require: npt.NDArray[np.bool_] | None = None) -> Any:
    """1-based rank of each query's target (inf when absent or not retrievable)."""
    n_q = len(c.queries)
    t_total = np.full(n_q, np.nan)
    t_order = np.zeros(n_q, dtype=np.int64)
    ok = c.target if require is None else (c.target & require)
    t_total[c.qid[ok]] = total[ok]
    t_order[c.qid[ok]] = c.id_order[ok]
    tt = t_total[c.qid]
    better = (total > tt) | ((total == tt) & (c.id_order < t_order[c.qid]))
    ahead = np.zeros(n_q)
    np.add.at(ahead, c.qid, better.astype(np.float64))
    return np.where(np.isnan(t_total), np.inf, ahead + 1)


def metrics(c: Candidates, ranks: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    styles = sorted({q.style for q in c.queries if q.target_key is not None})
    for style in [*styles, "all"]:
        sel = np.array([q.target_key is not None and style in (q.style, "all") for q in c.queries])
        r = ranks[sel]
        out[style] = {
            "queries": int(sel.sum()),
            "recall@5": round(float(np.mean(r <= 5)), 4),
            "mrr@10": round(float(np.mean(np.where(r <= 10, 1.0 / r, 0.0))), 4),
        }
    return out


def bm25_ranks(c: Candidates) -> Any:
    return target_ranks(c, c.keyword, require=c.keyword > 0)


def vector_ranks(c: Candidates) -> Any:
    return target_ranks(c, c.semantic)


def tune(c: Candidates) -> tuple[HybridWeights, dict[str, float]]:
    best: tuple[float, HybridWeights] | None = None
    mixes = [(0.4, 0.2, 0.4), (1.0, 0.0, 0.0), (0.0, 0.0, 1.0), (0.0, 1.0, 0.0), (0.5, 0.0, 0.5), (0.34, 0.33, 0.33)]
    for s, floor, share, (wi, wr, wc), hl in itertools.product(
        [i / 10 for i in range(11)], [1.0, 2.0, 4.0, 8.0, 16.0], [0.0, 0.1, 0.2, 0.3, 0.5, 0.7], mixes, [30.0, 90.0]
    ):
        w = HybridWeights(s, floor, share, wi, wr, wc, hl)
        m = metrics(c, target_ranks(c, totals(c, w)))["all"]
        objective = m["recall@5"] + m["mrr@10"]
        if best is None or objective > best[0] + 1e-12:
            best = (objective, w)
    assert best is not None
    return best[1], {"objective": round(best[0], 4)}


def tune_min_score(c: Candidates, w: HybridWeights, tolerance: float = 0.01) -> tuple[float, dict[str, float]]:
    """The highest minimum score that costs at most ``tolerance`` of recall@5."""
    total = totals(c, w)
    ranks = target_ranks(c, total)
    answerable = np.array([q.target_key is not None for q in c.queries])
    t_total = np.full(len(c.queries), -1.0)
    t_total[c.qid[c.target]] = total[c.target]
    top = np.full(len(c.queries), -1.0)
    np.maximum.at(top, c.qid, total)
    base = float(np.mean(ranks[answerable] <= 5))
    chosen, info = 0.0, {"recall@5": base, "unanswerable_empty": float(np.mean(top[~answerable] < 0.0))}
    for m in np.arange(0.0, 0.6, 0.01):
        kept = float(np.mean((ranks[answerable] <= 5) & (t_total[answerable] >= m)))
        if kept < base - tolerance:
            break
        chosen = round(float(m), 2)
        info = {"recall@5": round(kept, 4), "unanswerable_empty": round(float(np.mean(top[~answerable] < m)), 4)}
    return chosen, info


def service_check(engram: Engram, c: Candidates, w: HybridWeights) -> dict[str, Any]:
    """The hybrid through the real RecallService, plus what it must never return."""
    service = RecallService(
        engram.repos.entries,
        engram.repos.profiles,
        engram.index,
        engram.embedder,
        engram.clock,
        engram.agents,
        engram.recall.core,
        DiscardAccess(),
        w,
    )
    vectors = engram.embedder.embed([q.text for q in c.queries])
    ranks, empty, violations, latency = [], [], 0, []
    p = principal()
    for q, vec in zip(c.queries, vectors, strict=True):
        t0 = time.perf_counter()
        minimum = 0.0 if q.target_key is not None else None
        req = RecallRequest(q.text, token_budget=100_000, top_k=TOP_K, min_score=minimum, core_preferences=0)
        r = service.recall_with_vector(p, q.user_id, req, vec)
        latency.append((time.perf_counter() - t0) * 1000)
        for item in r.memories:
            if not item.entry.is_live(NOW):
                violations += 1
        if q.target_key is None:
            empty.append(not r.memories)
            continue
        keys = [m.entry.key for m in r.memories]
        ranks.append(keys.index(q.target_key) + 1 if q.target_key in keys else np.inf)
    arr = np.array(ranks, dtype=np.float64)
    fake = replace(c, queries=[q for q in c.queries if q.target_key is not None])
    out = metrics(fake, arr)
    out["unanswerable_empty"] = round(float(np.mean(empty)), 4) if empty else None
    out["superseded_or_expired_returned"] = violations
    out["p50_ms"] = round(float(np.median(latency)), 3)
    return out


def run(embedder_name: str, data: list[UserData]) -> dict[str, Any]:
    embedder = make_embedder(embedder_name)
    t0 = time.perf_counter()
    engram, _ = build_corpus(embedder, data, Path(tempfile.mkdtemp(prefix=f"engram-eval-{embedder_name}-")))
    built = time.perf_counter() - t0
    c = collect(engram, data)
    train_q = [i for i, q in enumerate(c.queries) if _split(data, q.user_id) == "train"]
    test_q = [i for i, q in enumerate(c.queries) if _split(data, q.user_id) == "test"]
    train, test = c.subset(train_q), c.subset(test_q)
    weights, tuning = tune(train)
    min_score, min_info = tune_min_score(train, weights)
    weights = replace(weights, min_score=min_score)
    result: dict[str, Any] = {"embedder": embedder.model_id, "build_s": round(built, 1), "weights": asdict(weights)}
    for split, part in (("train", train), ("test", test)):
        result[split] = {
            "bm25": metrics(part, bm25_ranks(part)),
            "vector": metrics(part, vector_ranks(part)),
            "hybrid": metrics(part, target_ranks(part, totals(part, weights))),
        }
    result["test"]["hybrid_service"] = service_check(engram, test, weights)
    result["tuning"] = {**tuning, "min_score": min_score, "train_at_min_score": min_info}
    h, b, v = (result["test"][k]["all"] for k in ("hybrid", "bm25", "vector"))
    result["hybrid_never_loses_on_test"] = all(h[m] >= max(b[m], v[m]) for m in ("recall@5", "mrr@10"))
    return result


def _split(data: list[UserData], user_id: str) -> str:
    return next(u.split for u in data if u.user_id == user_id)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=60)
    ap.add_argument("--embedders", default="hash,minilm")
    args = ap.parse_args(argv)
    # One info line per recall is right for a server and noise for thousands of queries.
    logging.getLogger("engram").setLevel(logging.WARNING)
    data = generate(users=args.users)
    check(data)
    results = {name: run(name, data) for name in args.embedders.split(",")}
    for name, r in results.items():
        print(f"\n== {name} ({r['embedder']}), corpus built in {r['build_s']} s")
        print(f"   tuned on train: {r['weights']}")
        for split in ("train", "test"):
            for method in ("bm25", "vector", "hybrid", "hybrid_service"):
                m = r[split].get(method)
                if m is None:
                    continue
                styles = "  ".join(
                    f"{s} {m[s]['recall@5']:.3f}/{m[s]['mrr@10']:.3f}"
                    for s in ("lexical", "paraphrase", "noshare", "value")
                )
                print(
                    f"   {split:5} {method:14} recall@5 {m['all']['recall@5']:.3f}  MRR@10 {m['all']['mrr@10']:.3f}"
                    f"   [{styles}]"
                )
        svc = r["test"]["hybrid_service"]
        print(
            f"   test unanswerable with no memory above minScore {r['weights']['min_score']}: "
            f"{svc['unanswerable_empty']}; superseded/expired returned: {svc['superseded_or_expired_returned']}"
        )
        print(f"   hybrid >= best single component on test: {r['hybrid_never_loses_on_test']}")
    path = write_results("retrieval_eval", {"users": args.users, "results": results})
    print(f"\nwrote {path}")
    return results


if __name__ == "__main__":
    main()
