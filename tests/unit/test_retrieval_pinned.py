"""Every search answers as it did before retrieval became one component (issue #21).

Memory search, archival search (hybrid, keyword, semantic), message search, long-term
search (facts, preferences, summaries) and recall run over one fixed data set on the
embedded store with the offline hash embedder; what each returns (ids, order, scores to
six places, how it matched, why) is compared with ``golden/retrieval.json``, recorded on
the code before the refactor. Regenerate only for an intended change of results:
``ENGRAM_REGEN_PINS=1 pytest tests/unit/test_retrieval_pinned.py``.
"""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

from engram.container import Engram
from engram.domain.blocks import BlockEdit
from engram.domain.conversation import MessageRole, NewMessage, ThreadSummary
from engram.domain.models import Role, Visibility
from engram.service.long_term import MemoryType
from engram.service.memory import UpsertCommand
from engram.service.recall import RecallRequest

from tests.support import T0, ManualClock, engram_for, principal

# Above zero: candidates that tie at zero would come back in the order of their random ids.
FLOOR = 1e-6
GOLDEN = Path(__file__).parent / "golden" / "retrieval.json"
AGENT = principal("t1", "agent-a", Role.WRITER, groups=("team",))
OTHER = principal("t1", "agent-b", Role.WRITER, groups=("team",))
ADMIN = principal("t1", "ops", Role.ADMIN)

FACTS = [
    ("employer", "works at Acme Robotics as a welder", "fact", Visibility.SELF, 60),
    ("city", "lives in Lyon near the river", "fact", Visibility.GLOBAL, 50),
    ("pet", "has a dog called Biscuit", "fact", Visibility.SELF, 40),
    ("drink", "prefers green tea in the morning", "preference", Visibility.SELF, 70),
    ("music", "likes jazz and old soul records", "preference", Visibility.GROUP, 55),
    ("allergy", "is allergic to peanuts", "fact", Visibility.GLOBAL, 90),
    ("sport", "plays tennis on Sundays with a friend", "fact", Visibility.SELF, 30),
    ("food", "loves spicy ramen and dumplings", "preference", Visibility.SELF, 45),
    ("car", "drives an old red bicycle to work", "fact", Visibility.SELF, 20),
    ("language", "speaks French and some Japanese", "fact", Visibility.SELF, 50),
]
OTHERS_FACTS = [
    ("project", "is building a robot arm for welding", "fact", Visibility.SELF, 60),
    ("band", "plays bass in a jazz band", "preference", Visibility.GROUP, 50),
]
MESSAGES = [
    ("th1", "m1", MessageRole.USER, "I started a new job at Acme Robotics last week", 10),
    ("th1", "m2", MessageRole.ASSISTANT, "Congratulations on the welding job at Acme", 9),
    ("th1", "m3", MessageRole.USER, "My dog Biscuit chewed my tennis racket yesterday", 2),
    ("th2", "m4", MessageRole.USER, "Can you recommend a ramen place in Lyon?", 1),
    ("th2", "m5", MessageRole.ASSISTANT, "Try the spicy ramen bar near the river", 1),
    ("th2", "m6", MessageRole.USER, "I drank green tea and listened to jazz all morning", 0),
]
TASKS = ["Plan the robot arm demo", "Book tennis court for Sunday", "Write the ramen blog post"]
QUERIES = [
    "where does the user work",
    "jazz music",
    "what did I say yesterday about my dog",
    "spicy ramen in Lyon",
    "tea",
    "zebra xylophone",
]


def _seed(engram: Engram, clock: ManualClock) -> None:
    for who, facts in ((AGENT, FACTS), (OTHER, OTHERS_FACTS)):
        for key, value, category, visibility, importance in facts:
            clock.advance(timedelta(hours=7))
            engram.memory.upsert(
                who,
                "u1",
                [
                    UpsertCommand(
                        key,
                        value,
                        category=category,
                        visibility=visibility,
                        group_ids=("team",) if visibility is Visibility.GROUP else None,
                        importance=importance,
                    )
                ],
            )
    for task in TASKS:
        clock.advance(timedelta(hours=3))
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(set={"current_task": task}))
        engram.blocks.write(AGENT, "u1", "human", BlockEdit(complete_task=True))
    now = clock.now()
    for thread, mid, role, content, days_ago in MESSAGES:
        clock.advance(timedelta(minutes=5))
        engram.conversation.conversations.append(
            AGENT, "u1", thread, [NewMessage(mid, role, content, now - timedelta(days=days_ago, hours=1))]
        )
    summary = ThreadSummary(
        "t1", "u1", "th2", "agent-a", "The user asked about ramen in Lyon and likes jazz.", 3, 3, now
    )
    engram.conversation.repo.put_summary(summary, None)
    engram.conversation.conversations.index_summary(summary)


def _num(x: float) -> float:
    return round(x, 6)


def _parts(parts: Any) -> Any:
    return (
        None
        if parts is None
        else {k: _num(v) for k, v in sorted(vars(parts).items())}
        if hasattr(parts, "__dict__")
        else [_num(v) for v in parts]
    )


def _answers(engram: Engram) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for q in QUERIES:
        for who_name, who in (("agent", AGENT), ("other", OTHER), ("admin", ADMIN)):
            out[f"memory/{who_name}/{q}"] = [
                [
                    r.entry.key,
                    r.entry.source_agent_id,
                    _num(r.score),
                    _num(r.keyword),
                    _num(r.semantic),
                    r.matched_by,
                    r.why,
                ]
                for r in engram.memory.search(who, "u1", q, limit=5, min_score=FLOOR)
            ]
        out[f"memory/default-floor/{q}"] = [[r.entry.key, _num(r.score)] for r in engram.memory.search(AGENT, "u1", q)]
        out[f"memory/preference/{q}"] = [
            [r.entry.key, _num(r.score)]
            for r in engram.memory.search(AGENT, "u1", q, category="preference", min_score=FLOOR)
        ]
        for mode in ("hybrid", "keyword", "semantic"):
            out[f"archival/{mode}/{q}"] = [
                [r.record.text, _num(r.score), _num(r.keyword), _num(r.semantic), r.matched_by, r.why]
                for r in engram.archival.search(AGENT, "u1", q, mode=mode, min_score=FLOOR)  # type: ignore[arg-type]
            ]
        for exclude in (None, "th1"):
            out[f"messages/{exclude}/{q}"] = [
                [r.message.id, _num(r.score), r.matched_by, r.why]
                for r in engram.conversation.conversations.search(
                    AGENT, "u1", q, min_score=FLOOR, exclude_thread_id=exclude
                )
            ]
        for kind in MemoryType:
            out[f"long-term/{kind.value}/{q}"] = [
                [i.namespace, i.memory_type.value, i.entry.key if i.entry else None, _num(i.score or 0.0), i.why]
                for i in engram.conversation.long_term.search(
                    AGENT, "u1", q, memory_type=kind, limit=6, min_score=FLOOR
                )
            ]
        result = engram.recall.recall(AGENT, "u1", RecallRequest(q, top_k=4, min_score=FLOOR))
        # Recall records what it showed in the background; later answers rank on it.
        assert engram.recall.access.flush()  # type: ignore[attr-defined]
        out[f"recall/{q}"] = {
            "preferences": [[p.entry.key, p.why] for p in result.preferences],
            "ranked": [
                [getattr(r, "entry", None) and r.entry.key, getattr(r, "message", None) and r.message.id, r.why]  # type: ignore[union-attr]
                for r in result.ranked
            ],
            "considered": result.considered,
            "below": result.below_min_score,
            "rendered": result.rendered.text,
        }
    return out


def test_every_search_answers_as_recorded(tmp_path: Path) -> None:
    clock = ManualClock(T0, tick=timedelta(0))
    engram = engram_for(tmp_path, clock=clock, extraction_worker="inline")
    _seed(engram, clock)
    clock.advance(timedelta(hours=1))
    got = json.loads(json.dumps(_answers(engram)))
    if os.environ.get("ENGRAM_REGEN_PINS"):
        GOLDEN.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(got) == sorted(want)
    for name in want:
        assert got[name] == want[name], name
