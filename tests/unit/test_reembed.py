"""Re-embedding after a model change (engram reembed, Reembedder)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from engram.adapters.sqlite.user_lister import SqliteUserLister
from engram.container import Engram, build, rebuild_stale_vectors
from engram.domain.conversation import MessageRole, NewMessage
from engram.domain.models import Role
from engram.local.cli import main
from engram.ports import DocKind, IndexDocument
from engram.service.memory import UpsertCommand
from engram.service.recall import RecallRequest
from engram.service.reembed import ConversationDocuments, Reembedder
from engram.settings import Settings

from tests.contract.test_user_control_contract import _archival, _version
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
    hashed = build(Settings(data_dir=tmp_path), clock=ManualClock())
    # A container over the old index as it was (no rebuild at start): the old documents
    # are never compared with a MiniLM query vector.
    engram = build(Settings(data_dir=tmp_path), embedder=minilm(), index=hashed.index, clock=ManualClock())
    ask = RecallRequest("which company do I work for?", top_k=1, min_score=0.05)
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


def _talk(tmp_path: Path) -> Engram:
    """With the hash embedder: a fact, a conversation (two messages, a summary), an archival record."""
    engram = build(Settings(data_dir=tmp_path, conversation_summary_every=2), clock=ManualClock())
    engram.memory.upsert(P, "u1", [UpsertCommand("employer", "Acme Corp")])
    said = datetime(2023, 5, 7, 18, 0, tzinfo=UTC)
    engram.conversation.conversations.append(
        P,
        "u1",
        "s1",
        [
            NewMessage("m1", MessageRole.USER, "We adopted a small dog from the animal shelter last week.", said),
            NewMessage("m2", MessageRole.ASSISTANT, "Lovely, congratulations!", said),
        ],
    )
    worker = engram.conversation.worker
    assert worker is None or worker.wait_idle(10)
    record = _archival("My grandmother taught me to bake sourdough bread.")
    engram.archival.repo.commit_block(_version({"facts": ("x",)}, 1), None, [record])
    assert engram.archival.index_records("t1", "u1", [record]) == 1
    return engram


def _models(engram: Engram) -> dict[str, set[str]]:
    rows = engram.index.connection().execute("SELECT kind, model_id FROM idx_docs").fetchall()  # type: ignore[attr-defined]
    out: dict[str, set[str]] = {}
    for kind, model in rows:
        out.setdefault(kind, set()).add(model)
    return out


def test_given_a_new_embedder_when_the_store_opens_then_every_kind_of_document_is_reembedded(tmp_path: Path) -> None:
    """#19: switching hash -> MiniLM re-embedded entries only, so past messages, summaries
    and archival records kept hash vectors a MiniLM query is never compared with: a
    paraphrase of a past message found nothing."""
    hashed = _talk(tmp_path)
    assert _models(hashed) == {k: {"engram-hash-v1-384"} for k in ("memory", "message", "summary", "archival")}
    hashed.index.upsert([replace(_orphan(), model_id="engram-hash-v1-384")])  # a document the store lost

    engram = build(Settings(data_dir=tmp_path), embedder=minilm(), clock=ManualClock())

    model = engram.embedder.model_id
    assert _models(engram) == {k: {model} for k in ("memory", "message", "summary", "archival")}
    assert "orphan" not in engram.index.ids("t1", "u1")  # type: ignore[attr-defined]
    # Words the message does not use: only its meaning finds it.
    body = engram.recall.recall(P, "u1", RecallRequest("Did we get a puppy?", top_k=5))
    assert [e.message.id for e in body.episodes] == ["m1"]
    assert body.episodes[0].parts.semantic > 0.3 and body.episodes[0].parts.keyword == 0.0
    found = engram.archival.search(P, "u1", "who showed me how to make bread?", limit=1)
    assert [h.record.text for h in found] == ["My grandmother taught me to bake sourdough bread."]
    assert found[0].semantic > 0.3
    # Nothing is left to do the next time.
    assert rebuild_stale_vectors(engram) == 0


def _orphan() -> IndexDocument:
    return IndexDocument("orphan", "t1", "u1", DocKind.MESSAGE, "gone", [1.0] + [0.0] * 383, None, "self", "agent-a")


def test_given_a_conversation_when_the_cli_reembeds_then_it_counts_messages_summaries_and_archival(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _talk(tmp_path)
    assert main(["--data-dir", str(tmp_path), "reembed", "--tenant", "t1"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "modelId": "engram-hash-v1-384",
        "users": 1,
        "entries": 1,
        "messages": 2,
        "summaries": 1,
        "archival": 1,
    }


def test_given_the_cli_when_reembedding_one_tenant_then_it_reports_what_it_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path)
    assert main(["--data-dir", str(tmp_path), "reembed", "--tenant", "t2"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "modelId": "engram-hash-v1-384",
        "users": 1,
        "entries": 1,
        "messages": 0,
        "summaries": 0,
        "archival": 0,
    }
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


def test_given_an_erasure_racing_a_reembed_of_messages_then_they_stay_out_of_the_index(tmp_path: Path) -> None:
    """The erasure lands after the re-embed read a thread's messages and before it writes
    them: the tombstone keeps them (and the summary and archival that follow) out."""
    _talk(tmp_path)
    clock = ManualClock()
    engram = build(Settings(data_dir=tmp_path), clock=clock)
    clock.advance(timedelta(minutes=1))  # the erasure comes after the writes
    repo = engram.conversation.repo
    admin = principal("t1", "ops", Role.ADMIN)

    class ErasedAfterTheRead:
        def __getattr__(self, name: str) -> object:
            return getattr(repo, name)

        def list_messages(self, *args: object, **kwargs: object) -> object:
            page = repo.list_messages(*args, **kwargs)  # type: ignore[arg-type]
            if page:
                engram.privacy.erase(admin, "u1", "CONFIRM")
            return page

    documents = ConversationDocuments(
        engram.index,
        engram.embedder,
        ErasedAfterTheRead(),  # type: ignore[arg-type]
        engram.archival.repo,
        engram.store,  # type: ignore[arg-type]
    )
    counts = documents.user("t1", "u1")
    assert (counts.messages, counts.summaries, counts.archival) == (0, 0, 0)
    assert engram.index.count("t1", "u1") == 0  # type: ignore[attr-defined]
