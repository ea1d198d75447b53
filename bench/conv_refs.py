"""Plain references on the conversation evaluation, without Engram: BM25 and MiniLM cosine.

What the issue's table calls "plain BM25 over the turns" and "plain MiniLM cosine": each
conversation's turns are the corpus, each question is scored against its own
conversation, R@k as in bench/conv_eval.py. It loads nothing into Engram, so it runs in
seconds: it is the yardstick used to write the questions of bench/conv_data.py (their
word overlap with the turns should make these two land where the held-out benchmark's
references land, BM25 R@10 about 0.56 and MiniLM about 0.44), not a measure of Engram.

BM25 is Okapi (k1 1.5, b 0.75, lower-cased word tokens, no stop list, no stemming) over
"Speaker: text"; MiniLM embeds the text alone and the question as asked.

Run: ``python -m bench.conv_refs [--data 3] [--splits train,test] [--no-minilm]``
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=int, default=DATA_VERSION)
    parser.add_argument("--splits", default="train,test")
    parser.add_argument("--conversations", type=int, default=12)
    parser.add_argument("--no-minilm", action="store_true")
    args = parser.parse_args(argv)
    res = evaluate(generate(args.conversations, version=args.data), args.splits.split(","), not args.no_minilm)
    for key, rows in res.items():
        for kind, r in rows.items():
            print(f"{key:14} {kind:9} n={r['n']:4} R@5 {r['R@5']:.3f} R@10 {r['R@10']:.3f} R@20 {r['R@20']:.3f}")
    print(json.dumps({k: v["all"] for k, v in res.items()}))
    print(f"wrote {write_results(f'conv_refs_v{args.data}', {'data_version': args.data, 'results': res})}")


if __name__ == "__main__":
    main()
