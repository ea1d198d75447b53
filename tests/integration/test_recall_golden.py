"""Recall's whole answer, pinned on a fixed corpus (#14, #19: a faster path must not change it).

A corpus of memory entries (every visibility, two agents, a group, superseded, deleted,
narrowed by the user's settings) and past conversations (several threads and agents,
dated sessions, a retention limit) is written through the API in-process, with a clock
that stands still while recalling and entry ids from a counter, so every byte of every
answer is reproducible. The answers are compared with tests/integration/golden/recall.json
field by field: the rendered block, every id and rank, every score part, the counts.

A deliberate change of ranking, rendering or the response regenerates the file:
    ENGRAM_GOLDEN_WRITE=1 pytest -q -n 0 tests/integration/test_recall_golden.py
and its diff is then part of that change's review. A change made for speed must leave it
as it is.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from engram.container import set_engram
from engram.domain.models import Role

from tests.integration.conftest import Api
from tests.support import engram_for

GOLDEN = Path(__file__).parent / "golden" / "recall.json"
T0 = datetime(2026, 1, 15, 10, 30, tzinfo=UTC)


class StillClock:
    """Moves one second per request while the corpus is written (so writes order as in
    real time) and stands still otherwise: no answer depends on how often a request
    reads the clock, which other changes to the write path are free to change."""

    def __init__(self) -> None:
        self.at = T0

    def now(self) -> datetime:
        return self.at

    def step(self) -> None:
        self.at += timedelta(seconds=1)


TOPICS = [
    ("favorite_food", "preference", 90, "Favorite food is spicy ramen with a soft egg"),
    ("coffee", "preference", 80, "Takes coffee black, no sugar, a double espresso in the morning"),
    ("music", "preference", 60, "Likes jazz piano, especially Bill Evans records on vinyl"),
    ("seat", "preference", 40, "Prefers an aisle seat on long flights"),
    ("city", "fact", 70, "Lives in Lisbon, near the Alfama district"),
    ("dog", "fact", 75, "Has a border collie named Pixel who is four years old"),
    ("employer", "fact", 65, "Works at a robotics startup building warehouse arms"),
    ("sister", "context", 55, "Her sister Ana is a marine biologist in the Azores"),
    ("birthday", "fact", 85, "Birthday is on the ninth of March"),
    ("allergy", "fact", 95, "Allergic to peanuts and cashews"),
    ("hobby", "fact", 50, "Climbs at the bouldering gym twice a week"),
    ("goal", "context", 60, "Training for the Lisbon half marathon in October"),
    ("language", "fact", 45, "Learning Japanese with a tutor on Thursdays"),
    ("car", "fact", 30, "Drives an old green Vespa scooter"),
    ("book", "preference", 35, "Reading a novel by Ursula Le Guin about anarchist moons"),
    ("project", "fact", 50, "Side project is a plant watering robot for her balcony"),
]

SESSIONS = [
    (
        "trip",
        "alpha",
        "2025-06-14T18:00:00+00:00",
        [
            ("Maya", "We finally booked the trip to Kyoto for the autumn!"),
            ("Assistant", "Wonderful. Are you staying in a ryokan or a hotel?"),
            ("Maya", "A small ryokan near the Philosopher's Path, my sister recommended it."),
            ("Assistant", "Do you want me to remind you about the rail pass?"),
            ("Maya", "Yes, the seven day pass, and remind me to bring the peanut allergy card."),
        ],
    ),
    (
        "work",
        "alpha",
        "2025-09-02T09:15:00+00:00",
        [
            ("Maya", "The warehouse arm demo went badly yesterday, the gripper dropped three boxes."),
            ("Assistant", "That sounds stressful. What went wrong with the gripper?"),
            ("Maya", "A firmware bug in the torque limiter; we patched it last week."),
            ("Maya", "My manager Joao wants the demo again next Friday."),
        ],
    ),
    (
        "pets",
        "alpha",
        "2025-12-20T20:40:00+00:00",
        [
            ("Maya", "Pixel learned to open the fridge door, which is a problem."),
            ("Assistant", "Clever dog! Maybe a child lock on the fridge?"),
            ("Maya", "Good idea, I ordered one yesterday along with a new leash."),
            ("Maya", "The vet said Pixel should lose a kilo before spring."),
        ],
    ),
    (
        "old",
        "alpha",
        "2023-03-10T12:00:00+00:00",
        [
            ("Maya", "I used to live in Porto before moving to Lisbon."),
            ("Maya", "Back then I drove a red Fiat Panda."),
        ],
    ),
    (
        "other-agent",
        "beta",
        "2025-10-05T10:00:00+00:00",
        [
            ("Maya", "Beta, my secret hobby is writing haiku about trains."),
            ("Maya", "The Kyoto trip budget is three thousand euros."),
        ],
    ),
]

# (name, who asks, user, request)
CASES: list[tuple[str, str, str, dict[str, Any]]] = [
    ("food", "alpha", "maya", {"message": "what food does she like?"}),
    ("dog", "alpha", "maya", {"message": "tell me about Pixel the dog", "topK": 10}),
    ("kyoto", "alpha", "maya", {"message": "where is she staying in Kyoto?", "topK": 8}),
    ("month", "alpha", "maya", {"message": "what happened at work in September 2025?", "topK": 6}),
    ("last-week", "alpha", "maya", {"message": "what did I order last week for the fridge?", "topK": 6}),
    ("allergy", "alpha", "maya", {"message": "any allergies I should know about?", "minScore": 0}),
    ("categories", "alpha", "maya", {"message": "what does she like", "categories": ["preference"], "topK": 10}),
    ("no-episodes", "alpha", "maya", {"message": "Kyoto trip and the rail pass", "episodes": False}),
    ("exclude", "alpha", "maya", {"message": "Kyoto trip and the rail pass", "excludeThreadId": "trip"}),
    ("budget", "alpha", "maya", {"message": "everything about Lisbon and her life", "topK": 20, "tokenBudget": 120}),
    ("nothing", "alpha", "maya", {"message": "zebra quantum saxophone"}),
    ("beta", "beta", "maya", {"message": "Kyoto trip budget and hobbies", "topK": 10, "minScore": 0}),
    ("grouped", "gamma", "maya", {"message": "what does Maya like to eat and drink?", "topK": 10}),
    ("retention", "alpha", "lee", {"message": "where did she live and what did she drive?", "topK": 10}),
    ("narrowed", "alpha", "lee", {"message": "favorite food and allergies", "topK": 10, "minScore": 0}),
]


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Api, dict[str, str], StillClock]]:
    counter = itertools.count(1)
    monkeypatch.setattr("engram.domain.writes.new_entry_id", lambda: f"mem_{next(counter):024x}")
    clock = StillClock()
    engram = engram_for(tmp_path, clock=clock, extraction_worker="inline")
    set_engram(engram)
    api = Api(engram)
    keys = {
        "alpha": api.key("acme", "alpha", Role.WRITER, groups=("household",)),
        "beta": api.key("acme", "beta", Role.WRITER),
        "gamma": api.key("acme", "gamma", Role.WRITER, groups=("household",)),
        "admin": api.key("acme", "console", Role.ADMIN),
    }
    call = _writer(api, clock)
    for user in ("maya", "lee"):
        ids: dict[str, str] = {}
        call("PATCH", f"/v1/users/{user}/profile", keys["alpha"], json_body={"name": user.title()})
        for n, (key, category, importance, value) in enumerate(TOPICS):
            visibility = ("self", "global", "group")[n % 3]
            body: dict[str, Any] = {
                "key": key,
                "value": value,
                "category": category,
                "importance": importance,
                "visibility": visibility,
            }
            if visibility == "group":
                body["groupIds"] = ["household"]
            written = call("PUT", f"/v1/users/{user}/memories", keys["alpha"], json_body=body).json()
            ids[key] = written["id"] if "id" in written else written["entry"]["id"]
        # beta's own: alpha must never see the self one
        for key, visibility in (("beta_note", "self"), ("beta_shared", "global")):
            body = {"key": key, "value": f"Beta noted her favorite tea is genmaicha ({visibility})"}
            call("PUT", f"/v1/users/{user}/memories", keys["beta"], json_body={**body, "visibility": visibility})
        # superseded and deleted: neither the old value nor the deleted entry comes back
        moved = {"key": "city", "value": "Moved to Lisbon's Graca neighbourhood in 2025", "importance": 70}
        call("PUT", f"/v1/users/{user}/memories", keys["alpha"], json_body=moved)
        call("DELETE", f"/v1/users/{user}/memories/{ids['car']}", keys["alpha"])
        for thread, agent, start, turns in SESSIONS:
            at = datetime.fromisoformat(start)
            messages = [
                {
                    "id": f"{thread}-{i}",
                    "role": "user" if speaker == "Maya" else "assistant",
                    "content": text,
                    "timestamp": (at + timedelta(minutes=i)).isoformat(),
                    "metadata": {"speaker": speaker},
                }
                for i, (speaker, text) in enumerate(turns)
            ]
            call("POST", f"/v1/users/{user}/threads/{thread}/messages", keys[agent], json_body={"messages": messages})
    settings = {"retentionDays": 400, "allowedCategories": ["fact", "preference"]}
    call("PATCH", "/v1/users/lee/settings", keys["admin"], json_body=settings)
    worker = engram.conversation.worker if engram.conversation else None
    assert worker is None or worker.wait_idle(20)
    clock.step()
    yield api, keys, clock
    set_engram(None)


def _ok(reply: Any) -> Any:
    assert reply.status in (200, 201), reply.body
    return reply


def _writer(api: Api, clock: StillClock) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        clock.step()
        return _ok(api.call(*args, **kwargs))

    return call


def _answers(api: Api, keys: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, who, user, request in CASES:
        # Twice: the second answer comes from whatever a first recall warmed or cached.
        for attempt in ("first", "again"):
            r = _ok(api.call("POST", f"/v1/users/{user}/recall", keys[who], json_body=request))
            out[f"{name}/{attempt}"] = r.json()
            # Recall counts what it showed in the background; let it land before the next.
            flush = getattr(api.engram.recall.access, "flush", None)
            if flush is not None:
                assert flush(10)
    return out


def test_recall_answers_match_the_golden_file(corpus: tuple[Api, dict[str, str], StillClock]) -> None:
    api, keys, _ = corpus
    answers = _answers(api, keys)
    if os.environ.get("ENGRAM_GOLDEN_WRITE") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(answers, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(answers) == sorted(golden)
    for case in golden:
        assert answers[case] == golden[case], case
    # The corpus exercises what it claims to: episodes, windows, budgets, scopes, retention.
    assert golden["kyoto/first"]["episodes"], "episodes"
    assert golden["month/first"]["timeWindow"], "a time window"
    assert golden["budget/first"]["overBudget"], "the budget cut"
    assert not golden["nothing/first"]["memories"] and not golden["nothing/first"]["episodes"]
    seen = json.dumps(golden["food/first"]) + json.dumps(golden["allergy/first"])
    assert "beta_note" not in seen and "(self)" not in seen
    assert all(e["provenance"]["threadId"] != "old" for e in golden["retention/first"]["episodes"])
