"""Re-embedding after a model change (engram reembed, Reembedder)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from engram.adapters.sqlite.user_lister import SqliteUserLister
from engram.container import build
from engram.domain.models import Role
from engram.local.cli import main
from engram.service.memory import UpsertCommand
from engram.service.recall import RecallRequest
from engram.service.reembed import Reembedder
from engram.settings import Settings

from tests.semantic import minilm
from tests.support import ManualClock, principal

P = principal("t1", "agent-a", Role.WRITER)


def _write(tmp_path: Path) -> None:
    engram = build(Settings(data_dir=tmp_path), clock=ManualClock())  # the hash embedder
    for user in ("u1", "u2"):
        engram.memory.upsert(P, user, [UpsertCommand("employer", "Acme Corp"), UpsertCommand("dog_name", "Rex")])
    other = principal("t2", "agent-a", Role.WRITER)
    engram.memory.upsert(other, "u9", [UpsertCommand("employer", "Globex")])


def test_given_a_new_model_when_reembedded_then_semantic_search_finds_paraphrases_again(tmp_path: Path) -> None:
    _write(tmp_path)
    engram = build(Settings(data_dir=tmp_path), embedder=minilm(), clock=ManualClock())
    ask = RecallRequest("which company do I work for?", top_k=1, min_score=0.05)
    # Documents of another model are never compared with a MiniLM query vector.
    assert engram.recall.recall(P, "u1", ask).memories == []
    report = Reembedder(
        engram.store,
        SqliteUserLister(engram.store.db),
        engram.index,
        engram.embedder,
        engram.clock,  # type: ignore[arg-type]
    ).reembed("t1")
    assert (report.users, report.entries, report.by_tenant) == (2, 4, {"t1": 4})
    found = engram.recall.recall(P, "u1", ask).memories
    assert [m.entry.key for m in found] == ["employer"]


def test_given_the_cli_when_reembedding_one_tenant_then_it_reports_what_it_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path)
    assert main(["--data-dir", str(tmp_path), "reembed", "--tenant", "t2"]) == 0
    assert json.loads(capsys.readouterr().out) == {"modelId": "engram-hash-v1-384", "users": 1, "entries": 1}
    assert main(["--data-dir", str(tmp_path), "reembed", "--user", "u1"]) == 2


def test_the_user_lister_pages_through_every_user(tmp_path: Path) -> None:
    _write(tmp_path)
    engram = build(Settings(data_dir=tmp_path), clock=ManualClock())
    lister = SqliteUserLister(engram.store.db)  # type: ignore[arg-type]
    first = lister.list_users(limit=2)
    second = lister.list_users(limit=2, cursor=first.next_cursor)
    assert first.items + second.items == [("t1", "u1"), ("t1", "u2"), ("t2", "u9")]
    assert second.next_cursor is None
    assert lister.list_users("t2").items == [("t2", "u9")]


def test_given_an_erasure_racing_a_reembed_then_the_erased_user_stays_out_of_the_index(tmp_path: Path) -> None:
    """Issue #22: the erasure lands after the re-embed read the user's entries and before
    it writes them; the tombstone keeps them out of the index."""
    _write(tmp_path)
    clock = ManualClock()
    engram = build(Settings(data_dir=tmp_path), clock=clock)
    clock.advance(timedelta(minutes=1))  # the erasure comes after the writes
    store = engram.store
    admin = principal("t1", "ops", Role.ADMIN)

    class ErasedAfterTheRead:
        def __getattr__(self, name: str) -> object:
            return getattr(store, name)

        def list_entries(self, *args: object, **kwargs: object) -> object:
            page = store.list_entries(*args, **kwargs)  # type: ignore[arg-type]
            engram.privacy.erase(admin, "u1", "CONFIRM")
            return page

    Reembedder(
        ErasedAfterTheRead(),  # type: ignore[arg-type]
        SqliteUserLister(store.db),  # type: ignore[attr-defined]
        engram.index,
        engram.embedder,
        engram.clock,
        store,  # type: ignore[arg-type]
    ).reembed("t1", "u1")
    assert engram.index.count("t1", "u1") == 0
