"""Tune the one ranking on the TRAIN conversations of bench/conv_data.py (never test).

Loads only the train conversations through the natural path (threads, extraction
running), gathers each question's tier-2 candidates once (``RecallService.candidates``),
then grid-searches the weights by re-ranking those candidates: the objective is mean
R@10 over every train question with ``topK`` 20, the simplest weights within
``TOLERANCE`` of the best winning, with meaning's share at most ``MAX_SEMANTIC``. The
minimum score is then the lowest that leaves every off-topic question (words the
conversations never use) with nothing recalled, if that costs at most 0.01 of train
R@20, else the lowest that leaves two thirds of them empty; the R@20 each minimum costs
is reported beside it (``min_score_curve``).

Run: ``python -m bench.conv_tune [--embedders hash,minilm]``; paste the printed weights
into ``TUNED_WEIGHTS`` in functions/engram/domain/ranking.py.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import pickle
import tempfile
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from engram.domain.ranking import HybridWeights, Signals, rank, weights_for
from engram.service.recall import RecallRequest

from bench.common import write_results
from bench.conv_data import DATA_VERSION, generate
from bench.conv_eval import (
    KS,
    OFF_TOPIC,
    CachedEmbedder,
    StepClock,
    _engram,
    index_texts,
    load_threads,
    make_embedder,
    principal,
    question_texts,
    recall_at,
)


def gather(
    embedder_name: str, conversations: int, version: int = DATA_VERSION
) -> tuple[str, list[dict[str, Any]], list[list[tuple[str, Signals]]], datetime]:
    convs = [c for c in generate(version=version) if c.split == "train"][:conversations]
    embedder = CachedEmbedder(make_embedder(embedder_name), disk=embedder_name != "hash")
    embedder.prime(index_texts(convs) + question_texts(convs) + OFF_TOPIC)
    rows: list[dict[str, Any]] = []
    off: list[list[tuple[str, Signals]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        clock = StepClock(datetime(2023, 1, 1, tzinfo=UTC))
        engram = _engram(Path(tmp), embedder, clock)
        load_threads(engram, clock, convs)
        now = max(q.asked_at for c in convs for q in c.questions)
        clock.at = now
        p = principal()
        for c in convs:
            for q in c.questions:
                vector = engram.recall.query_vector(p, c.user_id, q.text)
                pool = engram.recall.candidates(p, c.user_id, RecallRequest(q.text, top_k=20), vector)
                turn = {mid: m.id for mid, m in pool.messages.items()}
                turn |= {eid: e.source_message_id or "" for eid, e in pool.entries.items()}
                rows.append({"kind": q.kind, "evidence": q.evidence, "cands": pool.candidates, "turn": turn})
            for text in OFF_TOPIC:
                off.append(
                    engram.recall.candidates(
                        p, c.user_id, RecallRequest(text, top_k=20), engram.recall.query_vector(p, c.user_id, text)
                    ).candidates
                )
    return embedder.model_id, rows, off, now


class Flat:
    """Every candidate of every question in flat arrays, questions contiguous (numpy)."""

    def __init__(self, rows: list[dict[str, Any]], now: datetime) -> None:
        cands = [(qi, cid, sig) for qi, r in enumerate(rows) for cid, sig in r["cands"]]
        self.rows = rows
        self.qid = np.array([q for q, _, _ in cands], dtype=np.int64)
        self.kw = np.array([s.keyword for _, _, s in cands])
        self.sem = np.clip(np.array([s.semantic for _, _, s in cands]), 0.0, 1.0)
        self.imp = np.clip(np.array([s.importance for _, _, s in cands]), 0, 100) / 100.0
        self.conf = np.clip(np.array([s.confidence for _, _, s in cands]), 0.0, 1.0)
        self.age = np.array([max(0.0, (now - s.freshness).total_seconds() / 86400.0) for _, _, s in cands])
        self.tm = np.array([s.time_match for _, _, s in cands])
        self.sm = np.array([s.speaker_match for _, _, s in cands])
        self.best = np.zeros(len(rows))
        np.maximum.at(self.best, self.qid, self.kw)
        self.turns = [rows[q]["turn"][cid] for q, cid, _ in cands]
        self.ids = [cid for _, cid, _ in cands]
        self.starts = np.searchsorted(self.qid, np.arange(len(rows) + 1))

    def totals(self, w: HybridWeights) -> npt.NDArray[np.float64]:
        """``domain.ranking.score`` vectorised (checked against it in ``check``)."""
        denom = np.maximum(self.best[self.qid], w.keyword_floor)
        kw = np.where(self.kw > 0, np.minimum(1.0, self.kw / denom), 0.0)
        rel = w.semantic * self.sem + (1 - w.semantic) * kw
        rel = np.where(self.tm > 0, rel * (1 + w.time_boost * self.tm), rel)
        rel = np.where(self.sm > 0, rel * (1 + w.speaker_boost * self.sm), rel)
        mix = w.importance + w.recency + w.confidence
        rec = 0.5 ** (self.age / w.recency_half_life_days)
        prior = (w.importance * self.imp + w.recency * rec + w.confidence * self.conf) / mix if mix else 0.0
        return rel * ((1 - w.prior_share) + w.prior_share * prior)  # type: ignore[no-any-return]

    def evaluate(self, w: HybridWeights, min_score: float = 0.0) -> dict[str, float]:
        totals = self.totals(w)
        sums = [0.0] * len(KS)
        for qi, r in enumerate(self.rows):
            a, b = self.starts[qi], self.starts[qi + 1]
            seg = totals[a:b]
            # Ties broken by position, not id as ``rank`` does: ties are rare in real scores.
            order = np.argsort(-seg, kind="stable")[:40]
            ranked = [self.turns[a + int(i)] for i in order if seg[int(i)] >= min_score][:20]
            turns = list(dict.fromkeys(t for t in ranked if t))
            for i, k in enumerate(KS):
                sums[i] += recall_at(turns, r["evidence"], k)
        return {f"R@{k}": sums[i] / max(1, len(self.rows)) for i, k in enumerate(KS)}


def check(flat: Flat, w: HybridWeights, now: datetime) -> None:
    """The vectorised score is the domain's score (so what is tuned is what runs)."""
    totals = flat.totals(w)
    for qi in range(min(20, len(flat.rows))):
        a = flat.starts[qi]
        for cid, parts in rank(flat.rows[qi]["cands"], w, now):
            i = a + flat.ids[a : flat.starts[qi + 1]].index(cid)
            assert abs(totals[i] - parts.total) < 1e-9, (cid, totals[i], parts.total)


# The most weight meaning may get. On this evaluation's data BM25 is weaker than it is on
# real conversations (the held-out benchmark: BM25 R@10 0.564 against MiniLM
# cosine 0.437; here about 0.3 against 0.55, docs/recall.md), so left free the tuner
# would all but switch keywords off (0.9 costs 0.01 of train R@10 over 0.8); a share
# of at least 0.2 keeps BM25 a voice where it is the stronger signal.
MAX_SEMANTIC = 0.8
TOLERANCE = 0.003
# BM25 scales against the larger of the query's best match and this floor. Data version 3
# has about 760 turns a conversation (BM25 scores run higher on a larger corpus), so the
# grid reaches 64; 1 to 16 were enough for the first two versions' shorter ones.
FLOORS = (1.0, 4.0, 8.0, 16.0, 32.0, 64.0)
OFF_TOPIC_EMPTY = 2 / 3


def gather_cached(
    embedder_name: str, conversations: int, version: int, cache: Path | None
) -> tuple[str, list[dict[str, Any]], list[list[tuple[str, Signals]]], datetime]:
    """``gather``, or what an earlier run of the same arguments left in ``cache``."""
    path = None if cache is None else cache / f"conv_tune_{embedder_name}_v{version}_{conversations}.pickle"
    if path is not None and path.exists():
        with path.open("rb") as f:
            return pickle.load(f)  # type: ignore[no-any-return]
    got = gather(embedder_name, conversations, version)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            pickle.dump(got, f)
    return got


def off_topic_empty(off: list[list[tuple[str, Signals]]], w: HybridWeights, now: datetime, minimum: float) -> float:
    """The share of off-topic questions with no candidate at or above ``minimum``."""
    off_flat = Flat([{"cands": c, "turn": {cid: "" for cid, _ in c}, "evidence": ()} for c in off], now)
    totals = off_flat.totals(w)
    starts = off_flat.starts
    empty = sum(1 for qi in range(len(off)) if not (totals[starts[qi] : starts[qi + 1]] >= minimum).any())
    return round(empty / max(1, len(off)), 3)


def tune(
    embedder_name: str, conversations: int, version: int = DATA_VERSION, cache: Path | None = None
) -> dict[str, Any]:
    model_id, rows, off, now = gather_cached(embedder_name, conversations, version, cache)
    flat = Flat(rows, now)
    base = weights_for(model_id)
    check(flat, base, now)
    shares = [x for x in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0) if x <= MAX_SEMANTIC]
    grid = itertools.product(shares, FLOORS, (0.0, 0.3), (0.0, 0.5, 1.5), (0.0, 0.25, 0.5, 1.0))
    scored = []
    for s, floor, share, tb, sb in grid:
        w = replace(
            base, semantic=s, keyword_floor=floor, prior_share=share, time_boost=tb, speaker_boost=sb, min_score=0.0
        )
        scored.append((flat.evaluate(w)["R@10"], w))
    # The simplest weights within TOLERANCE of the best (the grid lists less semantic
    # share, smaller priors and boosts first): a gain smaller than that is noise on
    # a few hundred questions, and every extra weight is one more way to overfit.
    top = max(r10 for r10, _ in scored)
    w = next(w for r10, w in scored if r10 >= top - TOLERANCE)
    # The minimum score: the lowest that leaves every question about things nobody said
    # with nothing recalled, if that costs at most 0.01 of train R@20; else the lowest
    # that leaves OFF_TOPIC_EMPTY of them empty (lower costs them junk; higher costs
    # evidence, which on a few short turns scores on meaning alone).
    full = flat.evaluate(w)["R@20"]
    steps = [x / 200 for x in range(1, 120)]
    clean = next((m for m in steps if off_topic_empty(off, w, now, m) >= 1.0), None)
    if clean is not None and flat.evaluate(w, clean)["R@20"] >= full - 0.01:
        chosen = clean
    else:
        chosen = next((m for m in steps if off_topic_empty(off, w, now, m) >= OFF_TOPIC_EMPTY), 0.6)
    w = replace(w, min_score=chosen)
    curve = [
        {
            "min_score": m,
            "train_R@20": round(flat.evaluate(w, m)["R@20"], 3),
            "off_topic_empty": off_topic_empty(off, w, now, m),
        }
        for m in (0.05, 0.1, 0.12, 0.14, 0.16, 0.18, 0.2, 0.25, 0.3, 0.4)
    ]
    return {
        "model_id": model_id,
        "train_conversations": conversations,
        "data_version": version,
        "train_questions": len(rows),
        "weights": asdict(w),
        "train": flat.evaluate(w, chosen),
        "train_untuned_defaults": flat.evaluate(base, base.min_score),
        "off_topic_empty_share": off_topic_empty(off, w, now, chosen),
        "min_score_curve": curve,
        "max_semantic": MAX_SEMANTIC,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--embedders", default="hash,minilm")
    parser.add_argument("--conversations", type=int, default=8, help="train conversations to load (of 8)")
    parser.add_argument("--data", type=int, default=DATA_VERSION, help="bench/conv_data.py version")
    parser.add_argument("--cache", type=Path, help="keep the gathered candidates here (re-runs skip the load)")
    args = parser.parse_args(argv)
    logging.disable(logging.INFO)
    out = {}
    for e in args.embedders.split(","):
        out[e] = tune(e, args.conversations, args.data, args.cache)
        print(json.dumps({e: out[e]}, indent=2), flush=True)
    write_results(f"conv_tune_{'_'.join(out)}", out)


if __name__ == "__main__":
    main()
