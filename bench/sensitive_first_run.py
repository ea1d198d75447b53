"""The one honest run of a new held-out part of the sensitive corpus: figures only, never a miss.

A held-out part is evidence only until someone reads what the filter got wrong on it. This
scores the given files with the filter and with the rules alone (``bench.sensitive_corpus``'s
``load`` and ``score``), prints precision and recall per category for each file, for each
part (the files whose names share a letter after ``holdout_``: ``i1`` and ``i2`` make ``i``)
and for all of them together, and writes the same figures, with the number of misses but not
the misses themselves, to ``bench/results/sensitive_corpus_<name>_first_run.json``.

Run it once, with main frozen, before anyone opens the files:
``python -m bench.sensitive_first_run ij bench/sensitive_samples_holdout_i1.txt ...``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path
from typing import Any

from bench.common import write_results
from bench.sensitive_corpus import CATEGORIES, Detector, Sample, engram_filter, load, rules_alone, score, score_benign

DETECTORS: dict[str, Detector] = {"filter": engram_filter, "rules_alone": rules_alone}


def _part_of(path: Path) -> str:
    m = re.search(r"holdout_([a-z]+)\d*$", path.stem)
    return m.group(1) if m else path.stem


def groups(paths: list[Path]) -> dict[str, list[Sample]]:
    """Each file, each part (its files together) and all of them, by name."""
    files = {f"held_out_{p.stem.removeprefix('sensitive_samples_holdout_')}": load([p]) for p in paths}
    parts: dict[str, list[Sample]] = {}
    for path, samples in zip(paths, files.values(), strict=True):
        parts.setdefault(f"held_out_{_part_of(path)}", []).extend(samples)
    together = {"all": [s for samples in files.values() for s in samples]}
    return {**files, **{k: v for k, v in parts.items() if k not in files}, **together}


def figures_only(result: dict[str, Any]) -> dict[str, Any]:
    """A score without its misses (reading them would spend the part), with how many there were."""
    kept = {k: v for k, v in result.items() if k != "misses"}
    kept["missed_samples"] = len(result.get("misses", []))
    return kept


def run(paths: list[Path]) -> dict[str, Any]:
    return {
        name: {det: figures_only(score(samples, detect)) for det, detect in DETECTORS.items()}
        for name, samples in groups(paths).items()
    }


def _line(name: str, det: str, v: dict[str, Any]) -> str:
    cells = "  ".join(
        f"{c[:6]} {v['per_category'][c]['precision']:.3f}/{v['per_category'][c]['recall']:.3f}"
        f" (fp {v['per_category'][c]['fp']}, fn {v['per_category'][c]['fn']})"
        for c in CATEGORIES
    )
    return f"{name:16s} {det:11s} n={v['samples']} pos={v['positives']}  {cells}  any {v['any']['precision']:.3f}/{v['any']['recall']:.3f}"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", help="names the results file: sensitive_corpus_<name>_first_run.json")
    parser.add_argument("files", nargs="+", type=Path, help="the held-out parts' files")
    parser.add_argument("--note", default="", help="who wrote the parts, when, and what they hold")
    args = parser.parse_args(argv)
    parts = run(args.files)
    benign = score_benign(engram_filter)["all"]
    for name, by in parts.items():
        for det, v in by.items():
            print(_line(name, det, v))
    print("benign", benign)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    path = write_results(
        f"sensitive_corpus_{args.name}_first_run",
        {"filter_commit": commit, "note": args.note, "parts": parts, "benign": benign},
    )
    print(f"  -> {path}")
    return parts


if __name__ == "__main__":
    main()
