"""The ``ConversationRepository`` contract: every adapter must pass these, unchanged.

Its own factories: the embedded store always; DynamoDB against moto server (real HTTP
through botocore) when its adapter is importable.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from engram.adapters.sqlite import SqliteStore
from engram.adapters.sqlite.conversations import SqliteConversations
from engram.domain.conversation import ExtractionRecord, MessageRole, NewMessage, ThreadKey, ThreadSummary
from engram.domain.errors import UserErased

Factory = Callable[[pytest.FixtureRequest, Path], Any]

CONVERSATION_FACTORIES: dict[str, Factory] = {
    "sqlite": lambda request, tmp: SqliteConversations(SqliteStore(tmp / "conversations.db").db),
}

try:
    from engram.adapters.dynamodb import create_table
    from engram.adapters.dynamodb.conversations import DynamoConversations

    from tests.moto_server import dynamodb_client, fresh_table_name, moto_endpoint, stop_moto

    def _dynamodb(request: pytest.FixtureRequest, tmp: Path) -> DynamoConversations:
        endpoint = moto_endpoint()
        request.session.config.add_cleanup(stop_moto)
        client = dynamodb_client(endpoint)
        name = fresh_table_name()
        create_table(client, name)
        request.addfinalizer(lambda: client.delete_table(TableName=name))
        return DynamoConversations(client, name)

    CONVERSATION_FACTORIES["dynamodb"] = _dynamodb
except ImportError:  # the DynamoDB adapter is not in this checkout
    pass

T0 = datetime(2026, 1, 15, 10, 0, tzinfo=UTC)


@pytest.fixture(params=sorted(CONVERSATION_FACTORIES))
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    yield CONVERSATION_FACTORIES[request.param](request, tmp_path)


def new(i: int | str, content: str = "hello", **extra: Any) -> NewMessage:
    return NewMessage(str(i), extra.pop("role", MessageRole.USER), content, extra.pop("at", T0), **extra)


def K(thread: str = "th1", user: str = "u1", tenant: str = "t1", agent: str = "a1") -> ThreadKey:
    return ThreadKey(tenant, user, agent, thread)


def append(
    repo: Any, *messages: NewMessage, thread: str = "th1", user: str = "u1", tenant: str = "t1", agent: str = "a1"
) -> Any:
    return repo.append(K(thread, user, tenant, agent), list(messages), T0)


class TestAppend:
    def test_messages_are_numbered_in_order_and_read_back_whole(self, repo: Any) -> None:
        berlin = datetime(2026, 1, 10, 0, 30, tzinfo=timezone(timedelta(hours=1)))
        meta = {"steps": [{"tool": "search", "ms": 12.5, "ok": True, "note": None}]}
        out = append(repo, new("a", "hi", at=berlin), new("b", "there", role=MessageRole.ASSISTANT, metadata=meta))
        assert [m.seq for m in out.messages] == [1, 2] and out.created == ("a", "b")
        assert (out.thread.last_seq, out.thread.window_start, out.thread.agent_id) == (2, 1, "a1")
        got = repo.get_message(K("th1", "u1", "t1"), "b")
        assert got == out.messages[1] and got.metadata == meta
        first = repo.get_message(K("th1", "u1", "t1"), "a")
        assert first.timestamp == berlin and first.timestamp.utcoffset() == timedelta(hours=1)
        assert first.extraction is None and first.tokens > 0

    def test_appending_is_idempotent_on_message_id(self, repo: Any) -> None:
        append(repo, new("a"), new("b"))
        again = append(repo, new("b", "changed"), new("c"), new("c"))
        assert again.created == ("c",)
        assert [(m.id, m.seq, m.content) for m in again.messages] == [
            ("b", 2, "hello"),
            ("c", 3, "hello"),
            ("c", 3, "hello"),
        ]
        replay = append(repo, new("a"), new("b"), new("c"))
        assert replay.created == () and replay.thread.last_seq == 3

    def test_each_agent_has_its_own_thread_ids(self, repo: Any) -> None:
        """Issue #22: another agent's thread of the same id is another thread, so what an
        agent sends can never tell whether it exists."""
        mine = append(repo, new("a", "alpha's"), new("b"))
        theirs = append(repo, new("a", "beta's"), new("x"), agent="a2")
        assert theirs.created == ("a", "x") and [m.seq for m in theirs.messages] == [1, 2]
        assert (theirs.thread.agent_id, theirs.thread.last_seq) == ("a2", 2)
        assert mine.thread.agent_id == "a1" and repo.get_thread(K()).last_seq == 2
        assert repo.get_message(K(), "a").content == "alpha's"
        assert repo.get_message(K(agent="a2"), "a").content == "beta's"
        assert repo.get_message(K(), "x") is None
        assert [m.id for m in repo.list_messages(K(agent="a2"))] == ["a", "x"]
        assert sorted((t.agent_id, t.thread_id) for t in repo.list_threads("t1", "u1")) == [
            ("a1", "th1"),
            ("a2", "th1"),
        ]
        assert [t.agent_id for t in repo.list_threads("t1", "u1", "a2")] == ["a2"]
        assert repo.get_thread(K(agent="a3")) is None
        repo.put_summary(ThreadSummary("t1", "u1", "th1", "a2", "beta", 2, 2, T0, 1), None)
        assert repo.get_summary(K()) is None and repo.get_summary(K(agent="a2")).text == "beta"
        assert repo.delete_thread(K(agent="a2")) == {"messages": 2, "summaries": 1, "threads": 1}
        assert repo.get_message(K(), "a").content == "alpha's" and repo.get_thread(K()).last_seq == 2

    def test_concurrent_appends_never_share_a_seq(self, repo: Any) -> None:
        errors: list[BaseException] = []

        def writer(w: int) -> None:
            try:
                for i in range(5):
                    append(repo, new(f"w{w}-{i}"))
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        seqs = [m.seq for m in repo.list_messages(K("th1", "u1", "t1"), 0, 100)]
        assert seqs == list(range(1, 21))
        assert repo.get_thread(K("th1", "u1", "t1")).last_seq == 20


class TestReading:
    def test_recent_and_list_page_in_append_order_within_bounds(self, repo: Any) -> None:
        append(repo, *[new(i) for i in range(1, 11)])
        assert [m.seq for m in repo.recent(K("th1", "u1", "t1"), 1, 3)] == [10, 9, 8]
        assert [m.seq for m in repo.recent(K("th1", "u1", "t1"), 4, 100, before_seq=7)] == [6, 5, 4]
        assert repo.recent(K("th1", "u1", "t1"), 11, 5) == []
        assert [m.seq for m in repo.list_messages(K("th1", "u1", "t1"), 7, 10)] == [8, 9, 10]
        assert [m.seq for m in repo.list_messages(K("th1", "u1", "t1"), 0, 2)] == [1, 2]

    def test_messages_are_fetched_across_threads_by_key(self, repo: Any) -> None:
        append(repo, new("a"))
        append(repo, new("a"), thread="th2")
        got = repo.get_messages(
            "t1",
            "u1",
            [("a1", "th1", "a"), ("a1", "th2", "a"), ("a1", "th3", "a"), ("a1", "th1", "a"), ("a2", "th1", "a")],
        )
        assert sorted(m.thread_id for m in got) == ["th1", "th2"]

    def test_tenants_users_and_threads_never_mix(self, repo: Any) -> None:
        append(repo, new("a", "mine"))
        append(repo, new("a", "other user"), user="u2")
        append(repo, new("a", "other tenant"), tenant="t2")
        assert repo.get_message(K("th1", "u1", "t1"), "a").content == "mine"
        assert repo.get_messages("t1", "u2", [("a1", "th1", "a")])[0].content == "other user"
        assert [t.thread_id for t in repo.list_threads("t1", "u1")] == ["th1"]
        assert repo.get_thread(K("th1", "u1", "t3")) is None

    def test_a_users_messages_are_read_whole_by_thread_then_sequence(self, repo: Any) -> None:
        repo.append(K("th2", "u1", "t1", "a1"), [new("x"), new("y")], T0)
        repo.append(K("th1", "u1", "t1", "a2"), [new("x")], T0)
        repo.append(K("th1", "u2", "t1", "a1"), [new("z")], T0)
        got = [(m.agent_id, m.thread_id, m.seq) for m in repo.user_messages("t1", "u1")]
        assert got == [("a1", "th2", 1), ("a1", "th2", 2), ("a2", "th1", 1)]

    def test_threads_are_listed_newest_first_and_by_agent(self, repo: Any) -> None:
        repo.append(K("old", "u1", "t1", "a1"), [new("a")], T0)
        repo.append(K("new", "u1", "t1", "a2"), [new("a")], T0 + timedelta(minutes=1))
        assert [t.thread_id for t in repo.list_threads("t1", "u1")] == ["new", "old"]
        assert [t.thread_id for t in repo.list_threads("t1", "u1", "a1")] == ["old"]


class TestProcessingState:
    def test_an_extraction_record_is_kept_with_its_message(self, repo: Any) -> None:
        append(repo, new("a"))
        record = ExtractionRecord(
            "extracted", T0, "rules-v1", None, {"created": 2}, {"sensitive": 1}, ("name",), {"costUsd": 0.001}
        )
        repo.mark_extracted(K("th1", "u1", "t1"), "a", record)
        assert repo.get_message(K("th1", "u1", "t1"), "a").extraction == record
        repo.mark_extracted(K("th1", "u1", "t1"), "missing", record)  # erased meanwhile: no error, nothing made
        assert repo.get_message(K("th1", "u1", "t1"), "missing") is None

    def test_the_window_moves_only_from_the_expected_start(self, repo: Any) -> None:
        append(repo, *[new(i) for i in range(3)])
        assert repo.clear_window(K("th1", "u1", "t1"), 1, 4, T0)
        assert not repo.clear_window(K("th1", "u1", "t1"), 1, 4, T0)
        thread = repo.get_thread(K("th1", "u1", "t1"))
        assert (thread.window_start, thread.clears, thread.window_size) == (4, 1, 0)
        after = append(repo, new("x"))
        assert (after.thread.window_start, after.thread.last_seq, after.thread.window_size) == (4, 4, 1)

    def test_summaries_are_written_under_an_optimistic_version(self, repo: Any) -> None:
        append(repo, new("a"))
        s1 = ThreadSummary("t1", "u1", "th1", "a1", "- user: hello", 1, 1, T0, 1)
        assert repo.put_summary(s1, None)
        assert not repo.put_summary(s1, None)
        s2 = ThreadSummary("t1", "u1", "th1", "a1", "- user: hello\n- user: again", 2, 2, T0, 2)
        assert not repo.put_summary(s2, 5)
        assert repo.put_summary(s2, 1)
        assert repo.get_summary(K("th1", "u1", "t1")) == s2
        repo.append(K("th2", "u1", "t1", "a2"), [new("b")], T0)
        repo.put_summary(ThreadSummary("t1", "u1", "th2", "a2", "other", 1, 1, T0, 1), None)
        assert [s.thread_id for s in repo.list_summaries("t1", "u1")] == ["th1", "th2"]
        assert [s.thread_id for s in repo.list_summaries("t1", "u1", "a2")] == ["th2"]


class TestDeletion:
    def test_deleting_a_thread_takes_its_messages_and_summary_only(self, repo: Any) -> None:
        append(repo, *[new(i) for i in range(3)])
        append(repo, new("keep"), thread="th2")
        repo.put_summary(ThreadSummary("t1", "u1", "th1", "a1", "s", 3, 3, T0, 1), None)
        assert repo.delete_thread(K("th1", "u1", "t1")) == {"messages": 3, "summaries": 1, "threads": 1}
        assert repo.get_thread(K("th1", "u1", "t1")) is None and repo.get_summary(K("th1", "u1", "t1")) is None
        assert repo.get_message(K("th2", "u1", "t1"), "keep") is not None

    def test_erasing_a_user_leaves_everyone_else(self, repo: Any) -> None:
        append(repo, new("a"), new("b"))
        append(repo, new("c"), thread="th2")
        repo.put_summary(ThreadSummary("t1", "u1", "th1", "a1", "s", 2, 2, T0, 1), None)
        append(repo, new("a"), agent="a2")  # another agent's thread of the same id goes too
        append(repo, new("a"), user="u2")
        append(repo, new("a"), tenant="t2")
        assert repo.erase_user("t1", "u1") == {"messages": 4, "summaries": 1, "threads": 3}
        assert repo.list_threads("t1", "u1") == [] and repo.list_summaries("t1", "u1") == []
        assert repo.get_message(K("th1", "u2", "t1"), "a") is not None
        assert repo.get_message(K("th1", "u1", "t2"), "a") is not None


def mark_erased(repo: Any, tenant: str, user: str, at: datetime) -> None:
    """Write the erasure tombstone the way the store of the same backend does."""
    if isinstance(repo, SqliteConversations):
        from engram.adapters.sqlite.erasure import SqliteErasure

        SqliteErasure(repo.db).mark_erased(tenant, user, at)
        return
    from engram.adapters.dynamodb.erasure import DynamoErasure

    DynamoErasure(repo.client, repo.table_name).mark_erased(tenant, user, at)


class TestErasureWins:
    def test_an_append_that_began_before_the_erasure_stores_nothing(self, repo: Any) -> None:
        """Issue #22: appends are held to the erasure tombstone as memory writes are."""
        append(repo, new("old"))
        mark_erased(repo, "t1", "u1", T0 + timedelta(seconds=5))
        late = T0 + timedelta(seconds=6)
        for origin in (T0, T0 + timedelta(seconds=5)):  # before, and at the same instant
            with pytest.raises(UserErased):
                repo.append(K("th1", "u1", "t1", "a1"), [new("a")], late, origin=origin)
            with pytest.raises(UserErased):  # a replay of a stored id is refused too
                repo.append(K("th1", "u1", "t1", "a1"), [new("old")], late, origin=origin)
        assert repo.get_message(K("th1", "u1", "t1"), "a") is None
        assert repo.get_thread(K("th1", "u1", "t1")).last_seq == 1
        # Another user, and an append that began after the erasure, work normally.
        assert repo.append(K("th1", "u2", "t1", "a1"), [new("a")], late, origin=T0).created == ("a",)
        after = repo.append(K("th1", "u1", "t1", "a1"), [new("a")], late, origin=T0 + timedelta(seconds=6))
        assert after.created == ("a",)
