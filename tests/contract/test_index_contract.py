"""The search index contract: every SearchIndex adapter must pass these, unchanged.

Vectors are built by hand (``index_support.unit``) so every cosine is known; texts use
plain words both the local FTS5 and OpenSearch analyzers treat alike.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from engram.domain.policies import VisibilityScope
from engram.ports import DocKind, IndexDocument, SearchHit, SearchQuery

from tests.contract.index_support import DIMENSION, unit
from tests.support import T0

NOW = T0


def doc(doc_id: str, text: str = "", vector: list[float] | None = None, **fields: Any) -> IndexDocument:
    base: dict[str, Any] = {
        "id": doc_id,
        "tenant_id": "t1",
        "user_id": "u1",
        "kind": DocKind.MEMORY,
        "text": text or f"note {doc_id}",
        "vector": vector,
        "model_id": "contract-model" if vector is not None else None,
        "visibility": "global",
        "source_agent_id": "agent-a",
    }
    base.update(fields)
    return IndexDocument(**base)


def search(index: Any, text: str = "", vector: list[float] | None = None, **fields: Any) -> dict[str, SearchHit]:
    base: dict[str, Any] = {"tenant_id": "t1", "user_id": "u1", "now": NOW, "text": text, "vector": vector}
    base.update(fields)
    hits = index.search(SearchQuery(**base))
    ids = [h.id for h in hits]
    assert len(ids) == len(set(ids)), "each id at most once"
    return {h.id: h for h in hits}


def filler(index: Any, n: int = 6, **fields: Any) -> None:
    """Unrelated documents, so keyword statistics look like a real user's."""
    index.upsert([doc(f"filler-{i}", f"unrelated words number {i}", **fields) for i in range(n)])


class TestUpsert:
    def test_given_an_upserted_doc_when_its_words_are_searched_then_it_is_a_keyword_hit(self, index: Any) -> None:
        filler(index)
        index.upsert([doc("e1", "drinks green tea every morning")])
        hits = search(index, "tea")
        assert set(hits) == {"e1"}
        assert hits["e1"].kind is DocKind.MEMORY
        assert hits["e1"].keyword > 0
        assert hits["e1"].semantic == 0.0

    def test_given_a_doc_upserted_again_with_new_text_then_it_is_replaced_not_duplicated(self, index: Any) -> None:
        filler(index)
        index.upsert([doc("e1", "lives in oslo")])
        index.upsert([doc("e1", "lives in bergen")])
        assert search(index, "oslo") == {}
        assert set(search(index, "bergen lives")) == {"e1"}

    def test_given_a_changed_doc_when_upserted_again_then_every_changed_field_takes_effect(self, index: Any) -> None:
        filler(index)
        scope = VisibilityScope("agent-a")
        index.upsert(
            [doc("e1", "plays chess", unit(0, 1), visibility="self", source_agent_id="agent-b", category="event")]
        )
        assert search(index, "chess", scope=scope) == {}
        index.upsert([doc("e1", "plays chess", unit(1), visibility="global", source_agent_id="agent-b")])
        hits = search(index, "chess", unit(1), scope=scope, categories=("fact", "event"))
        assert hits == {}  # category is now None: not in the allow-list
        hits = search(index, "chess", unit(1), scope=scope)
        assert set(hits) == {"e1"}
        assert hits["e1"].semantic == pytest.approx(1.0, abs=1e-3)

    def test_given_nothing_to_upsert_or_delete_then_nothing_happens(self, index: Any) -> None:
        index.upsert([])
        index.delete("t1", "u1", [])
        assert search(index, "anything") == {}

    def test_given_an_empty_index_then_search_finds_nothing(self, index: Any) -> None:
        assert search(index, "tea", unit(1)) == {}


class TestKeyword:
    def test_given_docs_when_searched_by_words_then_only_matching_docs_return_best_match_first(
        self, index: Any
    ) -> None:
        filler(index)
        index.upsert(
            [
                doc("both", "likes tea and biscuits"),
                doc("one", "likes tea and coffee"),
                doc("none", "likes juice and cake"),
            ]
        )
        hits = search(index, "tea biscuits")
        assert set(hits) == {"both", "one"}
        assert hits["both"].keyword > hits["one"].keyword > 0

    def test_given_a_plural_query_then_the_singular_text_matches(self, index: Any) -> None:
        filler(index)
        index.upsert([doc("e1", "her favourite colour is blue")])
        assert set(search(index, "colours")) == {"e1"}

    def test_given_more_matches_than_k_then_at_most_k_keyword_hits(self, index: Any) -> None:
        filler(index)
        index.upsert([doc(f"e{i}", f"tea note {i}") for i in range(6)])
        assert len(search(index, "tea", k=3)) == 3


class TestSemantic:
    def test_given_vectors_when_searched_by_vector_then_hits_carry_the_cosine_best_first(self, index: Any) -> None:
        index.upsert(
            [
                doc("same", vector=unit(1)),
                doc("near", vector=unit(1, 1)),
                doc("far", vector=unit(1, 2)),
                doc("orthogonal", vector=unit(0, 1)),
                doc("no-vector"),
            ]
        )
        hits = search(index, vector=unit(1))
        assert "no-vector" not in hits
        ranked = sorted(hits.values(), key=lambda h: -h.semantic)
        assert [h.id for h in ranked][:3] == ["same", "near", "far"]
        assert hits["same"].semantic == pytest.approx(1.0, abs=1e-3)
        assert hits["near"].semantic == pytest.approx(0.7071, abs=1e-3)
        assert hits["far"].semantic == pytest.approx(0.4472, abs=1e-3)
        assert all(h.keyword == 0.0 for h in hits.values())

    def test_given_k_then_at_most_k_semantic_hits_and_they_are_the_nearest(self, index: Any) -> None:
        index.upsert([doc(f"e{i}", vector=unit(1, i * 0.5)) for i in range(6)])
        hits = search(index, vector=unit(1), k=2)
        assert set(hits) == {"e0", "e1"}

    def test_given_text_and_vector_then_a_doc_found_both_ways_carries_both_scores(self, index: Any) -> None:
        filler(index)
        index.upsert([doc("e1", "walks the dog", unit(1)), doc("e2", "feeds the cat", unit(0, 1))])
        hits = search(index, "dog", unit(1))
        assert hits["e1"].keyword > 0
        assert hits["e1"].semantic == pytest.approx(1.0, abs=1e-3)

    def test_given_a_query_vector_of_another_size_then_it_is_ignored_and_keywords_still_work(self, index: Any) -> None:
        filler(index)
        index.upsert([doc("e1", "walks the dog", unit(1))])
        hits = search(index, "dog", [1.0] * (DIMENSION + 2))
        assert set(hits) == {"e1"}
        assert hits["e1"].keyword > 0


class TestIsolation:
    def test_given_the_same_user_and_id_in_two_tenants_then_each_tenant_sees_only_its_own(self, index: Any) -> None:
        filler(index)
        filler(index, tenant_id="t2")
        index.upsert([doc("e1", "tea lover", unit(1)), doc("e1", "tea secret", unit(1), tenant_id="t2")])
        assert search(index, "secret", unit(1)).keys() <= {"e1"}
        assert search(index, "secret") == {}
        assert set(search(index, "secret", tenant_id="t2")) == {"e1"}
        assert set(search(index, "lover", tenant_id="t2")) == set()

    def test_given_two_users_of_one_tenant_then_search_never_crosses_them(self, index: Any) -> None:
        filler(index)
        index.upsert([doc("mine", "tea", unit(1)), doc("theirs", "tea", unit(1), user_id="u2")])
        assert set(search(index, "tea", unit(1))) == {"mine"}
        assert set(search(index, "tea", unit(1), user_id="u2")) == {"theirs"}

    def test_given_a_delete_for_another_owner_then_the_same_id_elsewhere_survives(self, index: Any) -> None:
        filler(index)
        filler(index, tenant_id="t2")
        index.upsert([doc("e1", "tea"), doc("e1", "tea", tenant_id="t2")])
        index.delete("t2", "u1", ["e1"])
        index.delete("t1", "u2", ["e1"])
        assert set(search(index, "tea")) == {"e1"}
        assert search(index, "tea", tenant_id="t2") == {}


class TestFilters:
    def _visibility_docs(self, index: Any) -> None:
        filler(index)
        index.upsert(
            [
                doc("global-b", "tea", unit(1), visibility="global", source_agent_id="agent-b"),
                doc("self-a", "tea", unit(1), visibility="self", source_agent_id="agent-a"),
                doc("self-b", "tea", unit(1), visibility="self", source_agent_id="agent-b"),
                doc("group-b-g1", "tea", unit(1), visibility="group", source_agent_id="agent-b", group_ids=("g1",)),
                doc("group-b-g2", "tea", unit(1), visibility="group", source_agent_id="agent-b", group_ids=("g2",)),
                doc(
                    "group-b-g2g1",
                    "tea",
                    unit(1),
                    visibility="group",
                    source_agent_id="agent-b",
                    group_ids=("g2", "g1"),
                ),
                doc("group-a-g3", "tea", unit(1), visibility="group", source_agent_id="agent-a", group_ids=("g3",)),
            ]
        )

    @pytest.mark.parametrize("by", ["keyword", "vector"])
    def test_given_an_agent_scope_then_it_sees_global_its_own_and_its_groups_only(self, index: Any, by: str) -> None:
        self._visibility_docs(index)
        scope = VisibilityScope("agent-a", ("g1",))
        text, vector = ("tea", None) if by == "keyword" else ("", unit(1))
        assert set(search(index, text, vector, scope=scope)) == {
            "global-b",
            "self-a",
            "group-b-g1",
            "group-b-g2g1",
            "group-a-g3",
        }

    def test_given_an_agent_in_no_group_then_no_other_agents_group_entries(self, index: Any) -> None:
        self._visibility_docs(index)
        assert set(search(index, "tea", scope=VisibilityScope("agent-b"))) == {
            "global-b",
            "self-b",
            "group-b-g1",
            "group-b-g2",
            "group-b-g2g1",
        }

    @pytest.mark.parametrize("scope", [None, VisibilityScope("admin", everything=True)], ids=["none", "everything"])
    def test_given_no_scope_or_the_admin_view_then_everything_is_visible(
        self, index: Any, scope: VisibilityScope | None
    ) -> None:
        self._visibility_docs(index)
        assert len(search(index, "tea", scope=scope)) == 7

    def test_given_kinds_then_only_those_kinds_return(self, index: Any) -> None:
        filler(index)
        index.upsert(
            [
                doc("m", "tea", unit(1)),
                doc("msg", "tea", unit(1), kind=DocKind.MESSAGE),
                doc("arc", "tea", unit(1), kind=DocKind.ARCHIVAL),
            ]
        )
        assert set(search(index, "tea", unit(1))) == {"m"}
        assert set(search(index, "tea", unit(1), kinds=(DocKind.MESSAGE, DocKind.ARCHIVAL))) == {"msg", "arc"}
        assert search(index, "tea", unit(1), kinds=(DocKind.MESSAGE,))["msg"].kind is DocKind.MESSAGE

    def test_given_many_better_matches_of_another_kind_then_a_kind_asked_for_still_has_its_keyword_hit(
        self, index: Any
    ) -> None:
        # Given a user whose 120 messages all say "tea", most of them more often than
        # the one memory does
        filler(index)
        index.upsert([doc(f"msg-{i}", "tea tea", kind=DocKind.MESSAGE) for i in range(120)])
        index.upsert([doc("m", "tea with lemon in the garden")])
        # When memories are searched by words
        hits = search(index, "tea", k=2)
        # Then the messages take none of the memory's places
        assert set(hits) == {"m"}
        assert hits["m"].keyword > 0

    def test_given_categories_then_only_those_categories_return(self, index: Any) -> None:
        filler(index)
        index.upsert(
            [
                doc("fact", "tea", unit(1), category="fact"),
                doc("event", "tea", unit(1), category="event"),
                doc("none", "tea", unit(1)),
            ]
        )
        assert set(search(index, "tea", unit(1), categories=("fact",))) == {"fact"}
        assert set(search(index, "tea", unit(1), categories=("fact", "event"))) == {"fact", "event"}
        assert search(index, "tea", unit(1), categories=()) == {}
        assert len(search(index, "tea", unit(1))) == 3

    def test_given_threads_to_keep_or_skip_then_the_filter_follows_them(self, index: Any) -> None:
        filler(index, kind=DocKind.MESSAGE)
        index.upsert(
            [
                doc("a1", "tea", unit(1), kind=DocKind.MESSAGE, thread_id="a"),
                doc("b1", "tea", unit(1), kind=DocKind.MESSAGE, thread_id="b"),
                doc("loose", "tea", unit(1), kind=DocKind.MESSAGE),
            ]
        )
        kinds = (DocKind.MESSAGE,)
        assert set(search(index, "tea", unit(1), kinds=kinds, thread_ids=("a",))) == {"a1"}
        assert set(search(index, "tea", unit(1), kinds=kinds, exclude_thread_ids=("a",))) == {"b1", "loose"}
        assert search(index, "tea", unit(1), kinds=kinds, thread_ids=("a",), exclude_thread_ids=("a",)) == {}

    @pytest.mark.parametrize("by", ["keyword", "vector"])
    def test_given_expiry_times_then_only_docs_expiring_after_now_or_never_return(self, index: Any, by: str) -> None:
        filler(index)
        micro = timedelta(microseconds=1)
        expiries: dict[str, datetime | None] = {
            "never": None,
            "later": NOW + timedelta(days=1),
            "next-microsecond": NOW + micro,
            "exactly-now": NOW,
            "past": NOW - timedelta(hours=1),
        }
        index.upsert([doc(name, "tea", unit(1), expires_at=at) for name, at in expiries.items()])
        text, vector = ("tea", None) if by == "keyword" else ("", unit(1))
        assert set(search(index, text, vector)) == {"never", "later", "next-microsecond"}
        assert set(search(index, text, vector, now=NOW + timedelta(days=2))) == {"never"}


class TestDelete:
    def test_given_ids_when_deleted_then_they_are_gone_and_unknown_ids_are_fine(self, index: Any) -> None:
        filler(index)
        index.upsert([doc("e1", "tea", unit(1)), doc("e2", "tea", unit(1)), doc("e3", "tea", unit(1))])
        index.delete("t1", "u1", ["e1", "e3", "never-existed"])
        assert set(search(index, "tea", unit(1))) == {"e2"}
        index.delete("t1", "u1", ["e1"])  # twice is fine
        assert set(search(index, "tea")) == {"e2"}

    def test_given_a_deleted_doc_when_upserted_again_then_it_is_back(self, index: Any) -> None:
        filler(index)
        index.upsert([doc("e1", "tea")])
        index.delete("t1", "u1", ["e1"])
        index.upsert([doc("e1", "tea again")])
        assert set(search(index, "tea")) == {"e1"}


class TestEraseUser:
    def test_given_a_user_when_erased_then_all_their_docs_go_counted_and_others_stay(self, index: Any) -> None:
        index.upsert([doc(f"e{i}", "tea", unit(1)) for i in range(4)])
        index.upsert([doc("other-user", "tea", unit(1), user_id="u2")])
        index.upsert([doc("e0", "tea", unit(1), tenant_id="t2")])
        assert index.erase_user("t1", "u1") == {"indexDocuments": 4}
        assert search(index, "tea", unit(1)) == {}
        assert set(search(index, "tea", unit(1), user_id="u2")) == {"other-user"}
        assert set(search(index, "tea", unit(1), tenant_id="t2")) == {"e0"}
        assert index.erase_user("t1", "u1") == {"indexDocuments": 0}

    def test_given_a_user_with_nothing_indexed_then_erase_counts_zero(self, index: Any) -> None:
        assert index.erase_user("t1", "nobody") == {"indexDocuments": 0}


def message(doc_id: str, text: str, speaker: str, agent: str = "agent-a", **fields: Any) -> IndexDocument:
    return doc(
        doc_id,
        text,
        kind=DocKind.MESSAGE,
        visibility="self",
        source_agent_id=agent,
        thread_id="th1",
        occurred_at=NOW - timedelta(days=3),
        speaker=speaker,
        **fields,
    )


class TestMessages:
    def test_given_a_past_message_then_its_hit_carries_when_it_was_said_and_by_whom(self, index: Any) -> None:
        index.upsert([message("m1", "Maya: we adopted a beagle", "Maya")])
        hit = search(index, "beagle", kinds=(DocKind.MESSAGE,))["m1"]
        assert (hit.speaker, hit.occurred_at) == ("Maya", NOW - timedelta(days=3))

    def test_given_two_agents_threads_then_speakers_are_the_agents_own_and_none_means_every_agent(
        self, index: Any
    ) -> None:
        index.upsert([message("m1", "hi", "Maya"), message("m2", "hello", "Leo")])
        index.upsert([message("m3", "trip", "Jordan", agent="agent-b")])
        index.upsert([message("m4", "hi", "Sam", user_id="u2"), message("m5", "hi", "Kim", tenant_id="t2")])
        index.upsert([doc("e1", "a memory, no speaker")])
        assert index.speakers("t1", "u1", "agent-a") == {"Maya", "Leo"}
        assert index.speakers("t1", "u1", "agent-b") == {"Jordan"}
        assert index.speakers("t1", "u1", None) == {"Maya", "Leo", "Jordan"}
        assert index.speakers("t1", "u1", "agent-c") == frozenset()
        assert index.speakers("t1", "nobody", None) == frozenset()
