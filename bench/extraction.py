"""Extraction throughput and the ingest path's latency per turn, on the embedded store.

1. Rule-based extraction alone (``RuleExtractor.extract``) over a varied corpus of user
   messages: messages per second (goal: over 5,000 on one core).
2. One conversation turn through the API handler (``POST .../threads/{id}/messages``,
   a full API Gateway event as in Lambda), p50/p99:
   - ``append``: what the agent waits for in the cloud: redaction, the atomic append,
     the rolling summary and window checks; the queue only collects the jobs (SQS's own
     latency is not part of it);
   - ``append_and_extract``: the whole ingest path as a laptop runs it inline: the
     append, then indexing the message, extracting facts, semantic dedup and the memory
     writes.
Run: ``.venv/bin/python -m bench.extraction``
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from engram.adapters.rule_extractor import RuleExtractor
from engram.api.auth import principal_context
from engram.container import build, set_engram
from engram.domain.conversation import ExtractionJob
from engram.domain.models import Principal, Role
from engram.handlers import api
from engram.local.events import api_event
from engram.local.lambda_context import LocalContext
from engram.settings import Settings

from bench.common import percentiles, time_calls, write_results

THROUGHPUT_MESSAGES = 30_000
TURNS = 600
USERS = 20
GOAL_PER_SECOND = 5_000

_NAMES = ["Alice", "Bob", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana"]
_FOODS = ["pizza", "ramen", "sushi", "tacos", "dumplings", "pho", "curry", "falafel"]
_CITIES = ["Oslo", "Lisbon", "Nairobi", "Osaka", "Denver", "Tallinn", "Cusco"]
_TEMPLATES = [
    "my name is {name}",
    "call me {name}",
    "my favorite food is {food}",
    "actually my favorite food is {food}",
    "I like {food}",
    "I really love {food} and jazz",
    "I don't like {food}",
    "I'm feeling tired",
    "I am so stressed today",
    "I live in {city}, it is lovely this time of year",
    "I work at {name} Robotics",
    "Yesterday I went to {city} with my sister.",
    "I have a dentist appointment next week",
    "maybe I like {food}?",
    "Do you think I would enjoy {city}?",
    "If I moved to {city} I might learn to cook {food}",
    "ok",
    "thanks!",
    "wkwk",
    "Can you summarise the article I sent you about transit policy in {city}?",
    "What's the weather like in {city} tomorrow",
    "my card is 4111 1111 1111 1111",
    "my password is hunter2",
    "Thanks, that helps. My dog is a beagle and I just adopted a kitten.",
    "I'll call you Jarvis",
    "The meeting went fine. I'm allergic to peanuts, by the way, so no satay.",
]


def corpus(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [
        rng.choice(_TEMPLATES).format(name=rng.choice(_NAMES), food=rng.choice(_FOODS), city=rng.choice(_CITIES))
        for _ in range(n)
    ]


def throughput(messages: Sequence[str]) -> dict[str, float]:
    extractor = RuleExtractor()
    at = datetime(2026, 1, 15, 10, 0, tzinfo=UTC)
    for text in messages[:500]:
        extractor.extract(text, at)  # warm the regex and hashing caches
    start = time.perf_counter()
    facts = 0
    for text in messages:
        facts += len(extractor.extract(text, at).facts)
    seconds = time.perf_counter() - start
    return {
        "messages": len(messages),
        "seconds": round(seconds, 4),
        "messages_per_second": round(len(messages) / seconds, 1),
        "facts": facts,
        "goal_per_second": GOAL_PER_SECOND,
    }


class _Collect:
    """Collects jobs instead of sending them: the cloud's append path minus SQS itself."""

    def __init__(self) -> None:
        self.jobs: list[ExtractionJob] = []

    def send(self, jobs: Sequence[ExtractionJob]) -> None:
        self.jobs.extend(jobs)


def turn_latency(mode: str, turns: Sequence[str]) -> dict[str, float]:
    engram = build(
        Settings(data_dir=Path(tempfile.mkdtemp(prefix=f"engram-bench-{mode}-")), extraction_worker="inline")
    )
    set_engram(engram)
    feature = engram.conversation
    assert feature is not None
    if mode == "append":
        feature.conversations.queue = _Collect()
    writer = principal_context(Principal("bench", "agent-a", frozenset({Role.WRITER})))
    ctx = LocalContext()

    def post(i: int) -> None:
        user, thread = f"user-{i % USERS}", "chat"
        body = json.dumps({"messages": [{"id": f"{mode}-{i}", "role": "user", "content": turns[i % len(turns)]}]})
        event = api_event("POST", f"/v1/users/{user}/threads/{thread}/messages", body=body, authorizer=writer)
        r = api.handler(event, ctx)  # type: ignore[arg-type]
        assert r["statusCode"] == 200, r["body"]

    samples = time_calls(post, TURNS, warmup=40)
    return percentiles(samples)


def main() -> dict[str, object]:
    messages = corpus(THROUGHPUT_MESSAGES)
    rate = throughput(messages)
    turns = corpus(TURNS, seed=11)
    results = {
        "rule_extraction": rate,
        "turn_append": turn_latency("append", turns),
        "turn_append_and_extract": turn_latency("append_and_extract", turns),
        "turns": TURNS,
        "users": USERS,
        "message_limit": Settings().conversation_message_limit,
    }
    path = write_results("extraction", results)
    ok = "meets" if rate["messages_per_second"] > GOAL_PER_SECOND else "MISSES"
    print("Engram extraction, embedded store")
    print(
        f"  rule-based extraction: {rate['messages_per_second']:,.0f} messages/s "
        f"({rate['messages']} messages, {rate['facts']} facts; {ok} the {GOAL_PER_SECOND:,}/s goal)"
    )
    for name in ("turn_append", "turn_append_and_extract"):
        r = results[name]
        print(f"  {name:24s} p50 {r['p50_ms']:7.3f} ms   p99 {r['p99_ms']:7.3f} ms   (n={r['n']})")  # type: ignore[index]
    print(f"  -> {path}")
    return results


if __name__ == "__main__":
    main()
