"""Precision and recall of the sensitive-data filter on a hand-written corpus.

The samples (``bench/sensitive_samples_dev.txt`` and ``..._heldout.txt``) were written by
hand from how people type secrets and near-misses in chat: shorthand ("pw is hunter2"),
quotes, typos, key-value pairs, dotted and spaced numbers, ids with and without their
separators, and negatives built from the same words and shapes (an IMEI, a tracking
number, "my pin is in my wallet", "the secret is out"). Nothing is generated from the
filter's patterns; card numbers had their check digit made valid, as real ones are.

The filter was tuned on the development part only. The held-out part was written at the
same time and never looked at while tuning: its figures are reported separately and
are the honest estimate. Per category, a positive counts as found only when the rule
named is its category; "any" counts any refusal of a positive and any refusal of a
negative (what matters for storing nothing).

Run: ``python -m bench.sensitive_corpus``
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engram.domain.sensitive import find_sensitive

from bench.common import write_results

HERE = Path(__file__).parent
PARTS = {"development": HERE / "sensitive_samples_dev.txt", "held_out": HERE / "sensitive_samples_heldout.txt"}
LABELS = {"S": "secret", "C": "payment_card", "G": "government_id", "B": "bank_account", "N": None}
CATEGORIES = ("secret", "payment_card", "government_id", "bank_account")


@dataclass(frozen=True, slots=True)
class Sample:
    label: str | None
    text: str
    key: str
    line: int


def load(path: Path) -> list[Sample]:
    out: list[Sample] = []
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        label, _, text = raw.partition(" | ")
        key = ""
        if text.startswith("["):
            key, _, text = text[1:].partition("] ")
        out.append(Sample(LABELS[label], text, key, n))
    return out


def score(samples: list[Sample]) -> dict[str, Any]:
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    misses: list[dict[str, Any]] = []
    any_tp = any_fp = any_fn = 0
    for s in samples:
        found = find_sensitive(s.text, s.key)
        got = None if found is None else found.rule
        if s.label is not None and got == s.label:
            tp[s.label] += 1
        elif got != s.label:
            if s.label is not None:
                fn[s.label] += 1
            if got is not None:
                fp[got] += 1
            misses.append({"line": s.line, "key": s.key, "text": s.text, "expected": s.label, "got": got})
        if s.label is not None and got is not None:
            any_tp += 1
        elif s.label is None and got is not None:
            any_fp += 1
        elif s.label is not None:
            any_fn += 1
    per = {c: _pr(tp[c], fp[c], fn[c]) for c in CATEGORIES}
    return {
        "samples": len(samples),
        "positives": sum(1 for s in samples if s.label is not None),
        "negatives": sum(1 for s in samples if s.label is None),
        "per_category": per,
        "any": _pr(any_tp, any_fp, any_fn),
        "misses": misses,
    }


def _pr(tp: int, fp: int, fn: int) -> dict[str, Any]:
    return {
        "precision": round(tp / (tp + fp), 4) if tp + fp else 1.0,
        "recall": round(tp / (tp + fn), 4) if tp + fn else 1.0,
        "tp": tp,
        "fp": fp,
        "fn": fn,
    }


def main() -> dict[str, Any]:
    parts = {name: load(path) for name, path in PARTS.items()}
    results = {name: score(samples) for name, samples in parts.items()}
    everything = [s for samples in parts.values() for s in samples]
    results["all"] = score(everything)
    started = time.perf_counter()
    for s in everything:
        find_sensitive(s.text, s.key)
    per_sample_us = round((time.perf_counter() - started) / len(everything) * 1e6, 1)
    path = write_results("sensitive_corpus", {"parts": results, "microseconds_per_sample": per_sample_us})
    for name, r in results.items():
        print(f"{name}: {r['samples']} hand-written samples ({r['positives']} sensitive, {r['negatives']} not)")
        for c, v in [*r["per_category"].items(), ("any", r["any"])]:
            print(
                f"  {c:14s} precision {v['precision']:.3f}  recall {v['recall']:.3f}"
                f"  (tp {v['tp']}, fp {v['fp']}, fn {v['fn']})"
            )
        if name != "all":
            for m in r["misses"]:
                print(f"    miss line {m['line']}: expected {m['expected']}, got {m['got']}: [{m['key']}] {m['text']}")
    print(f"  {per_sample_us} µs per sample (one core, timings noisy on a shared machine)")
    print(f"  -> {path}")
    return results


if __name__ == "__main__":
    main()
