"""Charts for docs/performance.md, drawn from bench/results/*.json (matplotlib, Agg backend).

Each chart is drawn only when its results exist; a missing benchmark leaves its chart
out rather than drawing an empty one. Run: ``.venv/bin/python -m bench.charts``
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

os.environ.setdefault("MPLBACKEND", "Agg")

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.axes import Axes

from bench.common import RESULTS

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "img"
ENGRAM, MEM0, GREY, GOAL = "#2b6cb0", "#dd6b20", "#a0aec0", "#c53030"
PERCENTILES = (("p50_ms", "p50", "-"), ("p95_ms", "p95", "--"), ("p99_ms", "p99", ":"))


def load(name: str, results: Path = RESULTS) -> dict[str, Any] | None:
    path = results / f"{name}.json"
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _style(ax: Axes) -> None:
    ax.grid(True, axis="both", which="major", alpha=0.3)
    ax.spines[["top", "right"]].set_visible(False)


def _save(fig: Any, name: str, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.png"
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def latency_vs_entries(data: dict[str, Any], out: Path) -> Path:
    """Recall latency in-process against entries per user, one panel per embedder."""
    embedders = list(data["results"].items())
    fig, axes = plt.subplots(1, len(embedders), figsize=(5.5 * len(embedders), 4.2), squeeze=False)
    for ax, (name, r) in zip(axes[0], embedders, strict=True):
        sizes = sorted(r["sizes"], key=int)
        xs = [int(s) for s in sizes]
        for key, label, line in PERCENTILES:
            ys = [r["sizes"][s][key] for s in sizes]
            ax.plot(xs, ys, line, marker="o", color=ENGRAM, label=label)
            ax.annotate(f"{ys[-1]:.1f}", (xs[-1], ys[-1]), textcoords="offset points", xytext=(6, 0), fontsize=8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(xs, [f"{x:,}" for x in xs])
        ax.set_xlabel("entries per user")
        ax.set_ylabel("recall latency, ms (log)")
        ax.set_title(f"Recall in-process, {name} embedder ({r.get('embedder', name)})", fontsize=10)
        ax.legend(loc="upper left", fontsize=8)
        _style(ax)
    return _save(fig, "recall_latency_vs_entries", out)


def throughput(results: dict[str, dict[str, Any] | None], out: Path) -> Path | None:
    """Each throughput on its own axis: the units differ, so no shared scale."""
    panels: list[tuple[str, list[tuple[str, float, str]]]] = []
    vs = results.get("vs_mem0")
    if vs:
        bars = []
        for name, r in vs["results"].items():
            bars.append((f"Engram, {name}", r["engram"]["ingest"]["per_second"], ENGRAM))
            bars.append((f"mem0, {name}", r["mem0"]["ingest"]["per_second"], MEM0))
        panels.append(("Ingest in-process, memories/s\n(embed + index each write)", bars))
    load_ = results.get("load")
    if load_ and load_.get("phases"):
        bars = [(f"{phase} ({r['generator']})", r["rps"], ENGRAM) for phase, r in load_["phases"].items()]
        panels.append((f"engram serve on loopback, requests/s\n({load_['connections']} connections)", bars))
    ex = results.get("extraction")
    if ex and "rule_extraction" in ex:
        panels.append(
            ("Rule-based extraction, messages/s", [("one core", ex["rule_extraction"]["messages_per_second"], ENGRAM)])
        )
    dream = results.get("dream")
    if dream:
        bars = [(s, dream[s]["entries_per_second"], ENGRAM) for s in ("cold", "steady") if s in dream]
        panels.append((f"Dream, entries/s ({dream.get('workers', '?')} workers)", bars))
    if not panels:
        return None
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 1.3 + 1.0 * sum(len(b) for _, b in panels)), squeeze=False)
    for ax, (title, bars) in zip(axes[:, 0], panels, strict=True):
        labels = [b[0] for b in bars]
        values = [b[1] for b in bars]
        ax.barh(labels, values, color=[b[2] for b in bars])
        ax.invert_yaxis()
        for i, v in enumerate(values):
            ax.text(v, i, f" {v:,.0f}", va="center", fontsize=9)
        ax.set_xlim(0, max(values) * 1.22)
        ax.set_title(title, fontsize=10, loc="left")
        ax.tick_params(axis="y", labelsize=9)
        _style(ax)
    return _save(fig, "throughput", out)


def vs_mem0(data: dict[str, Any], out: Path) -> Path:
    """Search latency percentiles and retrieval quality, Engram beside mem0, per embedder."""
    embedders = list(data["results"].items())
    fig, (lat, qual) = plt.subplots(1, 2, figsize=(11, 4.2))
    width = 0.2
    groups = [f"{name}\n{p}" for name, _ in embedders for _, p, _ in PERCENTILES]
    xs = list(range(len(groups)))
    for offset, side, color in ((-width / 2, "engram", ENGRAM), (width / 2, "mem0", MEM0)):
        ys = [r[side]["search"][key] for _, r in embedders for key, _, _ in PERCENTILES]
        lat.bar([x + offset for x in xs], ys, width, color=color, label="Engram" if side == "engram" else "mem0")
    lat.set_xticks(xs, groups, fontsize=8)
    lat.set_ylabel("search latency, ms (lower is better)")
    lat.set_title("Search, in-process, same embedder object", fontsize=10)
    lat.legend(fontsize=8)
    _style(lat)
    metrics = (("recall@5", "recall@5"), ("mrr@10", "MRR@10"))
    groups = [f"{name}\n{label}" for name, _ in embedders for _, label in metrics]
    xs = list(range(len(groups)))
    for offset, side, color in ((-width / 2, "engram", ENGRAM), (width / 2, "mem0", MEM0)):
        ys = [r[side]["quality"]["test"][m] for _, r in embedders for m, _ in metrics]
        qual.bar([x + offset for x in xs], ys, width, color=color, label="Engram" if side == "engram" else "mem0")
        for x, y in zip(xs, ys, strict=True):
            qual.text(x + offset, y, f"{y:.2f}", ha="center", va="bottom", fontsize=7)
    qual.set_xticks(xs, groups, fontsize=8)
    qual.set_ylim(0, 1.1)
    qual.set_ylabel("held-out test users (higher is better)")
    qual.set_title("Retrieval quality on bench/eval_data.py", fontsize=10)
    qual.legend(fontsize=8, loc="lower right")
    _style(qual)
    return _save(fig, "vs_mem0", out)


def cold_start(data: dict[str, Any], out: Path) -> Path:
    """Handler import times here and with the Lambda runtime's variables, against the goal."""
    modules = list(data["import_ms"])
    labels = [m.removeprefix("engram.handlers.") for m in modules]
    fig, ax = plt.subplots(figsize=(8, 3.8))
    width = 0.38
    xs = list(range(len(modules)))
    here = [data["import_ms"][m] for m in modules]
    lam = [data["import_ms_lambda_env"][m] for m in modules]
    ax.bar([x - width / 2 for x in xs], here, width, color=ENGRAM, label="here (tracing off)")
    ax.bar([x + width / 2 for x in xs], lam, width, color=GREY, label="Lambda runtime variables (X-Ray on)")
    for x, y in zip(xs, here, strict=True):
        ax.text(x - width / 2, y, f"{y:.0f}", ha="center", va="bottom", fontsize=8)
    for x, y in zip(xs, lam, strict=True):
        ax.text(x + width / 2, y, f"{y:.0f}", ha="center", va="bottom", fontsize=8)
    ax.axhline(250, color=GOAL, linestyle="--", linewidth=1, label="goal for the api handler: 250 ms")
    ax.set_xticks(xs, labels)
    ax.set_ylabel("import in a fresh interpreter, ms")
    ax.set_title(f"Handler import time (median of {data.get('repeats', '?')})", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    _style(ax)
    return _save(fig, "cold_start", out)


def main(results: Path = RESULTS, out: Path = IMAGES) -> list[Path]:
    found = {
        name: load(name, results) for name in ("recall_latency", "vs_mem0", "load", "extraction", "dream", "cold_start")
    }
    drawn: list[Path] = []
    if found["recall_latency"]:
        drawn.append(latency_vs_entries(found["recall_latency"], out))
    path = throughput(found, out)
    if path:
        drawn.append(path)
    if found["vs_mem0"]:
        drawn.append(vs_mem0(found["vs_mem0"], out))
    if found["cold_start"]:
        drawn.append(cold_start(found["cold_start"], out))
    return drawn


if __name__ == "__main__":
    for p in main():
        print(p)
