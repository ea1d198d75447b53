"""Recall's caches stay true when another worker process writes (#14 recall speed).

``engram serve --workers N`` runs N processes on one data folder. Each keeps its own
copies: the index's per-user matrix and documents (dropped when the user's generation in
the database moves), and parsed entries and messages (remembered by their exact stored
text, so any change is a new key). Here one process recalls (warming all of them), a
second, spawned process supersedes the entry, forgets the thread and writes a new one
with the same message ids but other words, and the first process's next recall must
show exactly the new state.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

from engram.container import set_engram
from engram.domain.models import Role

from tests.integration.conftest import Api
from tests.support import engram_for

USER = "/v1/users/maya"


def _messages(*texts: str) -> dict[str, Any]:
    return {
        "messages": [
            {"id": f"m{i}", "role": "user", "content": text, "timestamp": f"2025-12-20T20:4{i}:00+00:00"}
            for i, text in enumerate(texts)
        ]
    }


def _ok(reply: Any) -> Any:
    assert reply.status == 200, reply.body
    return reply.json()


def _other_worker(data_dir: str, key: str) -> None:
    """What another ``engram serve`` worker does: its own container on the same folder."""
    engram = engram_for(Path(data_dir), extraction_worker="inline")
    set_engram(engram)
    api = Api(engram)
    _ok(api.call("PUT", f"{USER}/memories", key, json_body={"key": "dog", "value": "Has a greyhound named Comet"}))
    _ok(api.call("DELETE", f"{USER}/threads/pets", key))
    _ok(api.call("POST", f"{USER}/threads/pets/messages", key, json_body=_messages("We planted tomatoes and basil.")))


def _recall(api: Api, key: str, message: str) -> dict[str, Any]:
    body = {"message": message, "topK": 10, "minScore": 0}
    answer: dict[str, Any] = _ok(api.call("POST", f"{USER}/recall", key, json_body=body))
    return answer


def test_a_worker_recalls_what_another_worker_wrote_not_what_it_had_cached(tmp_path: Path) -> None:
    engram = engram_for(tmp_path, extraction_worker="inline")
    set_engram(engram)
    try:
        api = Api(engram)
        key = api.key("acme", "alpha", Role.WRITER)
        _ok(
            api.call(
                "PUT", f"{USER}/memories", key, json_body={"key": "dog", "value": "Has a border collie named Pixel"}
            )
        )
        _ok(
            api.call("POST", f"{USER}/threads/pets/messages", key, json_body=_messages("Pixel opened the fridge door."))
        )
        before = _recall(api, key, "Pixel the dog and the fridge")
        assert [m["entry"]["value"] for m in before["memories"]] == ["Has a border collie named Pixel"]
        assert [e["content"] for e in before["episodes"]] == ["Pixel opened the fridge door."]
        _recall(api, key, "Pixel the dog and the fridge")  # everything this process caches is warm

        other = multiprocessing.get_context("spawn").Process(target=_other_worker, args=(str(tmp_path), key))
        other.start()
        other.join(120)
        assert other.exitcode == 0

        after = _recall(api, key, "Pixel the dog and the fridge, tomatoes and basil")
        assert [m["entry"]["value"] for m in after["memories"]] == ["Has a greyhound named Comet"]
        # The same thread and message id, other words: the new message, never the cached one.
        assert [(e["provenance"]["messageId"], e["content"]) for e in after["episodes"]] == [
            ("m0", "We planted tomatoes and basil.")
        ]
        assert "Pixel" not in after["context"]
    finally:
        set_engram(None)
