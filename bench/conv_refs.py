"""Plain references on the conversation evaluation, without Engram: BM25 and MiniLM cosine.

What the issue's table calls "plain BM25 over the turns" and "plain MiniLM cosine": each
conversation's turns are the corpus, each question is scored against its own
conversation, R@k as in bench/conv_eval.py. It loads nothing into Engram, so it runs in
seconds: it is the yardstick used to write the questions of bench/conv_data.py (their
word overlap with the turns should make these two land where the held-out benchmark's
references land, BM25 R@10 about 0.56 and MiniLM about 0.44), not a measure of Engram.

BM25 is Okapi (k1 1.5, b 0.75, lower-cased word tokens, no stop list, no stemming) over
"Speaker: text"; MiniLM embeds the text alone and the question as asked.

``--neighbours`` (train split only) answers whether indexing a turn with the turn before
it helps: a plain hybrid (0.8 MiniLM cosine + 0.2 BM25 over the larger of the best
match and 16, a turn said by the person the question names counted double, the question
embedded without the names) with the previous turn of the same session added to the
keyword text, to the embedded text, or to both, against the turn alone; and the turn
alone lifted by the same speaker's turns said around it (what recall does with
``context_boost``, for a few boosts).

``--hybrid`` (both splits) checks the fourth session's changes the same plain way
(``hybrid_checks``): boosts clipped at 1 or not, the people's names in the keyword query
or not, BM25's statistics per conversation or store-wide.

Run: ``python -m bench.conv_refs [--data 3] [--splits train,test] [--no-minilm] [--neighbours] [--hybrid]``
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np

from bench.common import write_results
from bench.conv_data import DATA_VERSION, Conversation, generate

KS = (5, 10, 20)
_WORD = re.compile(r"\w+")


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class Okapi:
    def __init__(self, docs: Sequence[str], k1: float = 1.5, b: float = 0.75) -> None:
        self.docs = [Counter(tokens(d)) for d in docs]
        self.lens = [sum(d.values()) for d in self.docs]
        self.avg = sum(self.lens) / max(1, len(self.lens))
        df: Counter[str] = Counter()
        for d in self.docs:
            df.update(d.keys())
        n = len(self.docs)
        self.idf = {t: math.log((n - f + 0.5) / (f + 0.5) + 1) for t, f in df.items()}
        self.k1, self.b = k1, b

    def scores(self, query: str) -> list[float]:
        q = tokens(query)
        out = []
        for d, n in zip(self.docs, self.lens, strict=True):
            s = 0.0
            for t in q:
                f = d.get(t, 0)
                if f:
                    s += self.idf[t] * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * n / self.avg))
            out.append(s)
        return out


def _recall(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    top = set(ranked[:k])
    return sum(1 for e in evidence if e in top) / len(evidence)


def evaluate(
    convs: Sequence[Conversation], splits: Sequence[str], minilm: bool
) -> dict[str, dict[str, dict[str, float]]]:
    embed = None
    if minilm:
        from bench.conv_eval import CachedEmbedder, make_embedder

        emb = CachedEmbedder(make_embedder("minilm"))
        emb.prime([t.text for c in convs for t in c.turns] + [q.text for c in convs for q in c.questions])
        embed = emb.embed
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0, 0.0, 0.0]))
    for c in convs:
        if c.split not in splits:
            continue
        ids = [t.id for t in c.turns]
        bm25 = Okapi([f"{t.speaker}: {t.text}" for t in c.turns])
        vecs = np.array(embed([t.text for t in c.turns])) if embed else None
        for q in c.questions:
            if not q.evidence:
                continue
            rankings = {"bm25": bm25.scores(q.text)}
            if vecs is not None and embed is not None:
                rankings["minilm"] = (vecs @ np.array(embed([q.text])[0])).tolist()
            for ref, sc in rankings.items():
                ranked = [ids[i] for i in sorted(range(len(ids)), key=lambda i: (-sc[i], i)) if sc[i] > 0]
                for kind in (q.kind, "all"):
                    row = sums[f"{ref}/{c.split}"][kind]
                    for i, k in enumerate(KS):
                        row[i] += _recall(ranked, q.evidence, k)
                    row[3] += 1
    return {
        key: {
            kind: {f"R@{k}": round(r[i] / r[3], 3) for i, k in enumerate(KS)} | {"n": int(r[3])}
            for kind, r in sorted(rows.items())
        }
        for key, rows in sorted(sums.items())
    }


def neighbours(convs: Sequence[Conversation]) -> dict[str, dict[str, float]]:
    """R@10 / R@20 on the train split of the plain hybrid, with and without the previous turn."""
    from engram.domain.ranking import query_terms, said_around, semantic_query

    from bench.conv_eval import CachedEmbedder, make_embedder

    convs = [c for c in convs if c.split == "train"]

    def before(c: Conversation, i: int) -> str:
        prev = c.turns[i - 1] if i > 0 and c.turns[i - 1].session == c.turns[i].session else None
        return prev.text + " " if prev is not None else ""

    emb = CachedEmbedder(make_embedder("minilm"))
    questions = [semantic_query(q.text, [c.speaker_a, c.speaker_b]) for c in convs for q in c.questions]
    emb.prime(
        [t.text for c in convs for t in c.turns]
        + [before(c, i) + t.text for c in convs for i, t in enumerate(c.turns)]
        + questions
    )
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for c in convs:
        ids = [t.id for t in c.turns]
        alone = np.array(emb.embed([t.text for t in c.turns]))
        joined = np.array(emb.embed([before(c, i) + t.text for i, t in enumerate(c.turns)]))
        keyword = {
            "alone": Okapi([f"{t.speaker}: {t.text}" for t in c.turns]),
            "with previous": Okapi([f"{t.speaker}: {before(c, i)}{t.text}" for i, t in enumerate(c.turns)]),
        }
        for q in c.questions:
            qv = np.array(emb.embed([semantic_query(q.text, [c.speaker_a, c.speaker_b])])[0])
            said = np.array([1.0 if t.speaker in q.text else 0.0 for t in c.turns])
            for kname, okapi in keyword.items():
                kw = np.array(okapi.scores(" ".join(query_terms(q.text))))
                kw = kw / max(float(kw.max()), 16.0)
                for vname, vecs in (("alone", alone), ("with previous", joined)):
                    total = (0.8 * np.clip(vecs @ qv, 0, 1) + 0.2 * kw) * (1 + said)
                    ranked = [ids[i] for i in np.argsort(-total, kind="stable")[:20]]
                    row = sums[f"keywords {kname}, vector {vname}"]
                    row[0] += _recall(ranked, q.evidence, 10)
                    row[1] += _recall(ranked, q.evidence, 20)
                    row[2] += 1
        # The lift recall applies instead (``ranking.said_around``, ``context_boost``): each
        # turn plus a share of the best score of the same speaker's turns said within three
        # minutes of it in the same session.
        near = said_around([(t.id, str(t.session), t.speaker, t.at) for t in c.turns])
        index = {tid: i for i, tid in enumerate(ids)}
        around = [[index[n] for n in near.get(tid, ())] for tid in ids]
        for q in c.questions:
            qv = np.array(emb.embed([semantic_query(q.text, [c.speaker_a, c.speaker_b])])[0])
            said = np.array([1.0 if t.speaker in q.text else 0.0 for t in c.turns])
            kw = np.array(keyword["alone"].scores(" ".join(query_terms(q.text))))
            base = (0.8 * np.clip(alone @ qv, 0, 1) + 0.2 * kw / max(float(kw.max()), 16.0)) * (1 + said)
            best = np.array([max((base[j] for j in js), default=0.0) for js in around])
            for boost in (0.1, 0.2, 0.3, 0.5):
                total = base + boost * best
                ranked = [ids[i] for i in np.argsort(-total, kind="stable")[:20]]
                row = sums[f"turn alone, lifted by the same speaker's turns within 3 minutes x {boost}"]
                row[0] += _recall(ranked, q.evidence, 10)
                row[1] += _recall(ranked, q.evidence, 20)
                row[2] += 1
    return {k: {"R@10": round(r[0] / r[2], 3), "R@20": round(r[1] / r[2], 3), "n": int(r[2])} for k, r in sums.items()}


def hybrid_checks(convs: Sequence[Conversation]) -> dict[str, dict[str, dict[str, float]]]:
    """The fourth session's changes as plain checks, on both splits: a plain hybrid of
    recall's shape over each conversation's turns (MiniLM's weights: 0.8 cosine + 0.2 BM25
    over the larger of the best match and 16, time x2.5 inside the span the question names,
    a turn said by whom it names x2, the context lift 0.2, the minimum 0.24), with the time
    and speaker boosts clipped at 1 or not, the names of the two people in the keyword query
    or not, and BM25's statistics from the conversation alone or from all of them (one store
    holding every user, as Engram's index computes them)."""
    from engram.domain.ranking import query_terms, said_around, semantic_query, weights_for
    from engram.domain.temporal import question_window, time_match

    from bench.conv_eval import CachedEmbedder, make_embedder

    w = weights_for("all-MiniLM-L6-v2")
    emb = CachedEmbedder(make_embedder("minilm"))
    emb.prime(
        [t.text for c in convs for t in c.turns]
        + [semantic_query(q.text, [c.speaker_a, c.speaker_b]) for c in convs for q in c.questions]
    )
    store = Okapi([f"{t.speaker}: {t.text}" for c in convs for t in c.turns])
    variants = {
        "clipped, names in the keywords": (True, False),
        "not clipped, names in the keywords": (False, False),
        "not clipped, names left out of the keywords": (False, True),
    }
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0, 0.0]))
    for c in convs:
        ids = [t.id for t in c.turns]
        vecs = np.array(emb.embed([t.text for t in c.turns]))
        own = Okapi([f"{t.speaker}: {t.text}" for t in c.turns])
        wide = Okapi([f"{t.speaker}: {t.text}" for t in c.turns])
        wide.idf, wide.avg = store.idf, store.avg
        near = said_around([(t.id, str(t.session), t.speaker, t.at) for t in c.turns])
        index = {tid: i for i, tid in enumerate(ids)}
        around = [[index[n] for n in near.get(tid, ())] for tid in ids]
        for q in c.questions:
            if not q.evidence:
                continue
            names = [c.speaker_a, c.speaker_b]
            cos = np.clip(vecs @ np.array(emb.embed([semantic_query(q.text, names)])[0]), 0, 1)
            window = question_window(q.text, q.asked_at)
            tm = np.array([time_match(t.at, window) for t in c.turns])
            said = np.array([1.0 if t.speaker in q.text else 0.0 for t in c.turns])
            for stats, okapi in (("conversation", own), ("store", wide)):
                for vname, (clip, drop) in variants.items():
                    kw = np.array(
                        okapi.scores(" ".join(query_terms(semantic_query(q.text, names) if drop else q.text)))
                    )
                    rel = w.semantic * cos + (1 - w.semantic) * np.minimum(
                        1, kw / max(float(kw.max()), w.keyword_floor)
                    )
                    for boost, match in ((w.time_boost, tm), (w.speaker_boost, said)):
                        rel = rel * (1 + boost * match)
                        rel = np.minimum(1, rel) if clip else rel
                    best = np.array([max((rel[j] for j in js if rel[j] >= w.min_score), default=0.0) for js in around])
                    total = rel + w.context_boost * best
                    order = [i for i in np.argsort(-total, kind="stable")[:20] if total[i] >= w.min_score]
                    ranked = [ids[i] for i in order]
                    for kind in (q.kind, "all"):
                        row = sums[f"{c.split}, {stats} statistics, {vname}"][kind]
                        row[0] += _recall(ranked, q.evidence, 10)
                        row[1] += _recall(ranked, q.evidence, 20)
                        row[2] += 1
    return {
        key: {
            k: {"R@10": round(r[0] / r[2], 3), "R@20": round(r[1] / r[2], 3), "n": int(r[2])} for k, r in rows.items()
        }
        for key, rows in sorted(sums.items())
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=int, default=DATA_VERSION)
    parser.add_argument("--splits", default="train,test")
    parser.add_argument("--conversations", type=int, default=12)
    parser.add_argument("--no-minilm", action="store_true")
    parser.add_argument("--neighbours", action="store_true", help="the previous-turn experiment (train only)")
    parser.add_argument("--hybrid", action="store_true", help="the fourth session's plain checks (both splits)")
    args = parser.parse_args(argv)
    if args.hybrid:
        found = hybrid_checks(generate(args.conversations, version=args.data))
        for key, rows in found.items():
            print(f"{key:70} " + "  ".join(f"{k} {r['R@10']:.3f}/{r['R@20']:.3f}" for k, r in sorted(rows.items())))
        print(f"wrote {write_results(f'conv_hybrid_v{args.data}', {'data_version': args.data, 'results': found})}")
        return
    if args.neighbours:
        found = neighbours(generate(args.conversations, version=args.data))
        print(json.dumps(found, indent=1))
        print(f"wrote {write_results(f'conv_neighbours_v{args.data}', {'data_version': args.data, 'results': found})}")
        return
    res = evaluate(generate(args.conversations, version=args.data), args.splits.split(","), not args.no_minilm)
    for key, rows in res.items():
        for kind, r in rows.items():
            print(f"{key:14} {kind:9} n={r['n']:4} R@5 {r['R@5']:.3f} R@10 {r['R@10']:.3f} R@20 {r['R@20']:.3f}")
    print(json.dumps({k: v["all"] for k, v in res.items()}))
    print(f"wrote {write_results(f'conv_refs_v{args.data}', {'data_version': args.data, 'results': res})}")


if __name__ == "__main__":
    main()
