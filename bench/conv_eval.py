"""Recall on multi-session conversations (bench/conv_data.py): R@5/10/20 by path and question type.

Each conversation is one user's memory. Paths measured, per embedder:

- ``recall``: the natural agent path. Every session is a thread, every turn a message
  (speaker A as ``user``, B as ``assistant``, the speaker's name in metadata, the
  session's date as the timestamp), appended through ``ConversationService`` with
  extraction running; each question is a ``/recall`` with ``topK`` 20 and the default
  token budget. Items map back to turns through their provenance (an episode is a
  message; a fact names its source message).
- ``message_search``: the same data, ``GET .../messages/search`` with its defaults.
- ``entry_recall`` / ``entry_search``: each turn written as one memory entry instead
  (what an integrator without threads might do), ``/recall`` and ``/search``.
- ``bm25`` / ``vector``: one index component alone over the messages (references).

R@k: the share of a question's evidence turns among the first k distinct turns
returned, averaged over questions. Only figures of the ``test`` conversations are
reported as results; ``train`` is for tuning (bench/conv_tune.py).

Run: ``python -m bench.conv_eval [--embedders hash,minilm] [--paths ...] [--conversations 12]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from engram.container import Engram, build
from engram.domain.agent_config import AgentConfig, Guardrails, UserMemoryConfig
from engram.domain.conversation import MessageRole, NewMessage
from engram.domain.models import Principal, Role
from engram.ports import DocKind, Embedder, SearchQuery
from engram.service.memory import UpsertCommand
from engram.service.recall import RecallRequest
from engram.settings import Settings

from bench.common import write_results
from bench.conv_data import DATA_VERSION, Conversation, Question, generate, summary

TENANT = "conv-eval"
AGENT = "agent-conv"
KS = (5, 10, 20)
OFF_TOPIC = [
    "zebra",
    "quantum chromodynamics lecture notes",
    "What is the boiling point of tungsten?",
    "xylophone tariffs in Antarctica",
    "How do submarines handle ballast?",
    "medieval siege engine trebuchet counterweight",
    "Who won the 1962 chess olympiad?",
    "blockchain consensus byzantine fault tolerance",
]
PATHS = ("recall", "message_search", "entry_recall", "entry_search", "bm25", "vector")


CACHE_DIR = Path(os.environ.get("ENGRAM_BENCH_CACHE", Path.home() / ".cache" / "engram-bench"))


class CachedEmbedder:
    """Embeds every text once, in batches, and keeps the vectors on disk between runs
    (``ENGRAM_BENCH_CACHE``, default ~/.cache/engram-bench; one file per model): the
    figures are the same, a re-run on a shared 2-core machine costs seconds, not minutes."""

    def __init__(self, inner: Embedder, disk: bool = True) -> None:
        self.inner = inner
        self.cache: dict[str, list[float]] = {}
        self.path = CACHE_DIR / f"{hashlib.sha256(inner.model_id.encode()).hexdigest()[:16]}.npz" if disk else None
        self._loaded = 0
        if self.path is not None and self.path.exists():
            with np.load(self.path, allow_pickle=False) as data:
                self.cache = dict(zip(data["texts"].tolist(), data["vectors"].tolist(), strict=True))
            self._loaded = len(self.cache)

    def save(self) -> None:
        """Writes the cache back when it grew (atomically: a concurrent reader sees the old file)."""
        if self.path is None or len(self.cache) == self._loaded:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        texts = sorted(self.cache)
        tmp = self.path.with_suffix(".tmp.npz")
        np.savez(tmp, texts=np.array(texts), vectors=np.array([self.cache[t] for t in texts], dtype=np.float32))
        tmp.replace(self.path)
        self._loaded = len(self.cache)

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    @property
    def dedup_threshold(self) -> float:
        return self.inner.dedup_threshold

    def prime(self, texts: Sequence[str]) -> None:
        """Embeds what is not cached yet, in batches, and saves the cache."""
        self._fill(texts)
        self.save()

    def _fill(self, texts: Sequence[str]) -> None:
        todo = sorted({t for t in texts if t not in self.cache})
        for start in range(0, len(todo), 256):
            chunk = todo[start : start + 256]
            self.cache.update(zip(chunk, self.inner.embed(chunk), strict=True))

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        missing = [t for t in texts if t not in self.cache]
        if missing:
            self._fill(missing)  # a few texts at a time: saved by the next prime
        return [self.cache[t] for t in texts]


class StepClock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def now(self) -> datetime:
        return self.at


def index_texts(convs: Sequence[Conversation]) -> list[str]:
    """The texts the index will embed for these turns (so they are embedded in batches)."""
    texts = [t.text for c in convs for t in c.turns]
    try:
        from engram.domain.conversation import Message, message_search_text
    except ImportError:  # an Engram that indexes the bare text (the "before" runs)
        return texts
    for c in convs:
        for t in c.turns:
            m = Message(TENANT, c.user_id, "x", t.id, 1, MessageRole(t.role), t.text, t.at, AGENT, t.at, 0)
            texts.append(message_search_text(m.evolve(metadata={"speaker": t.speaker})))
    return texts


def question_texts(convs: Sequence[Conversation]) -> list[str]:
    """The texts a question is embedded as: as asked, and as recall embeds it (without the
    names of the two people, ``ranking.semantic_query``; absent in older Engrams)."""
    texts = [q.text for c in convs for q in c.questions]
    try:
        from engram.domain.ranking import semantic_query
    except ImportError:
        return texts
    return texts + [semantic_query(q.text, [c.speaker_a, c.speaker_b]) for c in convs for q in c.questions]


def make_embedder(name: str) -> Embedder:
    if name == "minilm":
        from engram.adapters.minilm_embedder import MiniLMEmbedder

        return MiniLMEmbedder()
    from engram.adapters.hashing_embedder import HashingEmbedder

    return HashingEmbedder()


def principal() -> Principal:
    return Principal(TENANT, AGENT, frozenset({Role.WRITER}))


def _engram(data_dir: Path, embedder: Embedder, clock: StepClock) -> Engram:
    engram = build(Settings(data_dir=data_dir, extraction_worker="inline"), embedder=embedder, clock=clock)
    categories = ("preference", "fact", "context", "event", "feeling", "goal", "habit", "relationship", "other")
    engram.agents.put(
        TENANT,
        AGENT,
        AgentConfig(
            user_memory_config=UserMemoryConfig(
                max_entries_per_user=100_000,
                max_recall_entries=1000,
                guardrails=Guardrails(allowed_categories=categories, max_writes_per_turn=1000, max_value_length=2000),
            )
        ),
    )
    return engram


def load_threads(engram: Engram, clock: StepClock, convs: Sequence[Conversation], profile: bool = True) -> None:
    """The natural path: each session a thread, each turn a message, extraction running.
    ``profile``: the user's profile names both people, as an app that knows its user would
    (without it, recall knows them only as the speakers of the messages)."""
    feature = engram.conversation
    assert feature is not None
    p = principal()
    for c in convs:
        # What an app knows of its user: their name, and the name they call the agent by
        # (here the other person of the conversation, who speaks as the assistant).
        if profile:
            engram.users.update_profile(p, c.user_id, name=c.speaker_a)
            engram.users.set_agent_name(p, c.user_id, c.speaker_b)
        by_session: dict[int, list[Any]] = defaultdict(list)
        for t in c.turns:
            by_session[t.session].append(t)
        for s, turns in sorted(by_session.items()):
            for t in turns:
                clock.at = t.at + timedelta(seconds=5)
                msg = NewMessage(t.id, MessageRole(t.role), t.text, t.at, {"speaker": t.speaker})
                feature.conversations.append(p, c.user_id, f"session-{s}", [msg])


def load_entries(engram: Engram, clock: StepClock, convs: Sequence[Conversation]) -> None:
    """Each turn one memory entry (key = turn id), written at its session time."""
    p = principal()
    for c in convs:
        for t in c.turns:
            clock.at = t.at + timedelta(seconds=5)
            key = "turn_" + t.id.replace(":", "_")
            engram.memory.upsert(p, c.user_id, [UpsertCommand(key, f"{t.speaker}: {t.text}", "fact")])
    engram.sync_index()


def _turn_of_entry(entry: Any) -> str | None:
    if entry.key.startswith("turn_"):
        return entry.key.removeprefix("turn_").replace("_", ":")
    return entry.source_message_id


def ranked_turns_recall(engram: Engram, user_id: str, q: Question, top_k: int = 20, **kw: Any) -> list[str]:
    result = engram.recall.recall(principal(), user_id, RecallRequest(message=q.text, top_k=top_k, **kw))
    ranked = getattr(result, "ranked", None)
    out: list[str] = []
    if ranked is not None:  # entries and episodes fused in one order
        for item in ranked:
            msg = getattr(item, "message", None)
            turn = msg.id if msg is not None else _turn_of_entry(item.entry)
            if turn:
                out.append(turn)
    else:
        out = [t for t in (_turn_of_entry(m.entry) for m in result.memories) if t]
    return list(dict.fromkeys(out))


def ranked_turns_message_search(engram: Engram, user_id: str, q: Question) -> list[str]:
    assert engram.conversation is not None
    hits = engram.conversation.conversations.search(principal(), user_id, q.text, limit=20)
    return list(dict.fromkeys(h.message.id for h in hits))


def ranked_turns_entry_search(engram: Engram, user_id: str, q: Question) -> list[str]:
    hits = engram.memory.search(principal(), user_id, q.text, limit=20)
    return [t for t in (_turn_of_entry(h.entry) for h in hits) if t]


def ranked_turns_component(engram: Engram, user_id: str, q: Question, component: str) -> list[str]:
    vector = engram.embedder.embed([q.text])[0] if component == "vector" else None
    hits = engram.index.search(
        SearchQuery(
            tenant_id=TENANT,
            user_id=user_id,
            now=q.asked_at,
            text=q.text if component == "bm25" else "",
            vector=vector,
            kinds=(DocKind.MESSAGE,),
            k=20,
        )
    )
    key = (lambda h: h.keyword) if component == "bm25" else (lambda h: h.semantic)
    hits = sorted((h for h in hits if key(h) > 0), key=lambda h: (-key(h), h.id))
    return [h.id.split("|")[-1] for h in hits]  # the message id ends every format of the doc id


def recall_at(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    if not evidence:
        return 1.0
    top = set(ranked[:k])
    return sum(1 for e in evidence if e in top) / len(evidence)


def score(
    convs: Sequence[Conversation], ranker: Callable[[Conversation, Question], list[str]], split: str
) -> dict[str, dict[str, float]]:
    """R@k per question type, and ``answered``: the share of questions that got anything
    back at all at the default minimum score (a threshold that returns nothing for a
    question the conversation answers shows here)."""
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0, 0.0])
    for c in convs:
        if c.split != split:
            continue
        for q in c.questions:
            if not q.evidence:
                continue
            ranked = ranker(c, q)
            for kind in (q.kind, "all"):
                row = sums[kind]
                for i, k in enumerate(KS):
                    row[i] += recall_at(ranked, q.evidence, k)
                row[3] += 1
                row[4] += 1 if ranked else 0
    return {
        kind: {f"R@{k}": round(row[i] / row[3], 3) for i, k in enumerate(KS)}
        | {"n": int(row[3]), "answered": round(row[4] / row[3], 3)}
        for kind, row in sorted(sums.items())
    }


def evaluate(
    embedder_name: str,
    convs: Sequence[Conversation],
    paths: Sequence[str],
    splits: Sequence[str],
    profile: bool = True,
) -> dict[str, Any]:
    embedder = CachedEmbedder(make_embedder(embedder_name), disk=embedder_name != "hash")
    t0 = time.perf_counter()
    embedder.prime(index_texts(convs) + question_texts(convs))
    out: dict[str, Any] = {"model_id": embedder.model_id, "embed_s": round(time.perf_counter() - t0, 1)}
    with tempfile.TemporaryDirectory() as tmp:
        if set(paths) & {"recall", "message_search", "bm25", "vector"}:
            clock = StepClock(datetime(2023, 1, 1, tzinfo=UTC))
            engram = _engram(Path(tmp) / "threads", embedder, clock)
            t0 = time.perf_counter()
            load_threads(engram, clock, convs, profile)
            out["load_threads_s"] = round(time.perf_counter() - t0, 1)
            rankers: dict[str, Callable[[Conversation, Question], list[str]]] = {
                "recall": lambda c, q: ranked_turns_recall(engram, c.user_id, q),
                "message_search": lambda c, q: ranked_turns_message_search(engram, c.user_id, q),
                "bm25": lambda c, q: ranked_turns_component(engram, c.user_id, q, "bm25"),
                "vector": lambda c, q: ranked_turns_component(engram, c.user_id, q, "vector"),
            }
            for path in paths:
                if path in rankers:
                    for split in splits:
                        clock.at = max(q.asked_at for c in convs for q in c.questions)
                        out[f"{path}/{split}"] = score(convs, rankers[path], split)
            # Questions about things nobody said: nothing should come back.
            asked = [
                (c, Question("off", "off", text, (), c.questions[0].asked_at)) for c in convs for text in OFF_TOPIC
            ]
            if "recall" in paths:
                empty = sum(1 for c, q in asked if not ranked_turns_recall(engram, c.user_id, q))
                out["off_topic_empty_share"] = round(empty / max(1, len(asked)), 3)
            if "message_search" in paths:
                empty = sum(1 for c, q in asked if not ranked_turns_message_search(engram, c.user_id, q))
                out["off_topic_empty_share/message_search"] = round(empty / max(1, len(asked)), 3)
        if set(paths) & {"entry_recall", "entry_search"}:
            clock = StepClock(datetime(2023, 1, 1, tzinfo=UTC))
            engram = _engram(Path(tmp) / "entries", embedder, clock)
            load_entries(engram, clock, convs)
            clock.at = max(q.asked_at for c in convs for q in c.questions)
            erankers: dict[str, Callable[[Conversation, Question], list[str]]] = {
                "entry_recall": lambda c, q: ranked_turns_recall(engram, c.user_id, q),
                "entry_search": lambda c, q: ranked_turns_entry_search(engram, c.user_id, q),
            }
            for path in paths:
                if path in erankers:
                    for split in splits:
                        out[f"{path}/{split}"] = score(convs, erankers[path], split)
    return out


def table(results: dict[str, Any], split: str = "test") -> str:
    lines = ["| path | embedder | type | n | R@5 | R@10 | R@20 |", "|---|---|---|---:|---:|---:|---:|"]
    for emb, res in results.items():
        for key, rows in res.items():
            if not isinstance(rows, dict) or not key.endswith("/" + split):
                continue
            path = key.split("/")[0]
            for kind, r in rows.items():
                lines.append(
                    f"| {path} | {emb} | {kind} | {r['n']} | {r['R@5']:.3f} | {r['R@10']:.3f} | {r['R@20']:.3f} |"
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--embedders", default="hash,minilm")
    parser.add_argument("--paths", default=",".join(PATHS))
    parser.add_argument("--splits", default="test")
    parser.add_argument("--conversations", type=int, default=12)
    parser.add_argument("--label", default="after", help="results file suffix (before / after)")
    parser.add_argument(
        "--data", type=int, default=DATA_VERSION, help="bench/conv_data.py version (1, 2: the earlier evaluations')"
    )
    parser.add_argument(
        "--no-profile", action="store_true", help="the natural path without the people's names in the user's profile"
    )
    args = parser.parse_args(argv)
    logging.disable(logging.INFO)
    # Only the conversations asked about are loaded (each is its own user).
    convs = [c for c in generate(args.conversations, version=args.data) if c.split in args.splits.split(",")]
    results = {
        e: evaluate(e, convs, args.paths.split(","), args.splits.split(","), not args.no_profile)
        for e in args.embedders.split(",")
    }
    for split in args.splits.split(","):
        print(f"\n## {split}\n" + table(results, split))
    path = write_results(
        f"conv_eval_{args.label}", {"data": summary(convs) | {"version": args.data}, "results": results}
    )
    print(json.dumps({e: {k: v for k, v in r.items() if not isinstance(v, dict)} for e, r in results.items()}))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
