"""Semantic dedup and supersede for extracted facts, per embedder (behaviour item 6)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from engram.adapters.hashing_embedder import HashingEmbedder
from engram.container import Engram, build
from engram.domain.agent_config import AgentConfig, UserMemoryConfig
from engram.domain.models import Role, Visibility
from engram.domain.policies import VisibilityScope
from engram.ports import Embedder
from engram.service.dedup import DedupThresholds, SemanticDedup, thresholds_for
from engram.service.memory import UpsertCommand
from engram.settings import Settings

from tests.semantic import minilm
from tests.support import ManualClock, principal

SCOPE = VisibilityScope("agent-a")


def _engram(tmp_path: Path, embedder: Embedder, clock: Any = None) -> Engram:
    return build(Settings(data_dir=tmp_path), embedder=embedder, clock=clock or ManualClock())


def _remember(engram: Engram, key: str, value: str, *, agent: str = "agent-a", **kw: Any) -> str:
    p = principal("t1", agent, Role.WRITER)
    result = engram.memory.upsert(p, "u1", [UpsertCommand(key=key, value=value, **kw)])[0]
    engram.sync_index()
    return result.entry.id


def _dedup(engram: Engram, thresholds: DedupThresholds | None = None) -> SemanticDedup:
    return SemanticDedup(engram.store, engram.index, engram.embedder, engram.clock, thresholds)


def test_thresholds_are_set_per_embedder() -> None:
    assert thresholds_for(minilm()) == DedupThresholds(duplicate=0.85, contradiction=0.80)
    assert thresholds_for(HashingEmbedder()) == DedupThresholds(duplicate=0.92, contradiction=0.90)


class TestMiniLM:
    def test_given_the_same_fact_in_other_words_when_matched_then_it_is_a_duplicate(self, tmp_path: Path) -> None:
        engram = _engram(tmp_path, minilm())
        pizza = _remember(engram, "favorite_food", "pizza", category="preference")
        _remember(engram, "employer", "Acme Corp")
        match = _dedup(engram).match("t1", "u1", "favourite_meal", "pizza", "preference", SCOPE)
        assert match is not None
        assert (match.entry.id, match.kind) == (pizza, "duplicate")
        assert match.similarity > 0.85

    def test_given_the_same_subject_with_another_value_when_matched_then_it_is_a_contradiction(
        self, tmp_path: Path
    ) -> None:
        engram = _engram(tmp_path, minilm())
        pizza = _remember(engram, "favorite_food", "pizza", category="preference")
        match = _dedup(engram).match("t1", "u1", "favorite_meal", "sushi", "preference", SCOPE)
        assert match is not None
        assert (match.entry.id, match.kind) == (pizza, "contradiction")
        assert match.similarity >= 0.80

    def test_given_an_unrelated_fact_when_matched_then_there_is_no_match(self, tmp_path: Path) -> None:
        engram = _engram(tmp_path, minilm())
        _remember(engram, "favorite_food", "pizza", category="preference")
        _remember(engram, "favorite_color", "blue", category="preference")
        assert _dedup(engram).match("t1", "u1", "employer", "Acme Corp", "fact", SCOPE) is None

    def test_given_a_contradiction_when_the_caller_writes_under_the_matched_key_then_the_old_is_superseded(
        self, tmp_path: Path
    ) -> None:
        engram = _engram(tmp_path, minilm())
        pizza = _remember(engram, "favorite_food", "pizza", category="preference")
        match = _dedup(engram).match("t1", "u1", "favorite_meal", "sushi", "preference", SCOPE)
        assert match is not None and match.kind == "contradiction"
        p = principal("t1", "agent-a", Role.WRITER)
        cmd = UpsertCommand(key=match.entry.key, value="sushi", category="preference")
        result = engram.memory.upsert(p, "u1", [cmd])[0]
        assert result.outcome.value == "superseded"
        assert result.entry.supersedes == pizza

    def test_given_a_key_that_negates_or_names_another_relative_when_matched_then_it_is_a_new_fact(
        self, tmp_path: Path
    ) -> None:
        # MiniLM scores these whole facts at about 0.89-0.90, above the duplicate threshold.
        engram = _engram(tmp_path, minilm())
        _remember(engram, "favorite_food", "sushi", category="preference")
        _remember(engram, "brother_name", "Anna")
        dedup = _dedup(engram)
        assert dedup.match("t1", "u1", "least_favorite_food", "sushi", "preference", SCOPE) is None
        assert dedup.match("t1", "u1", "sister_name", "Anna", "fact", SCOPE) is None
        # While a paraphrase of the same subject still is one
        assert dedup.match("t1", "u1", "favourite_meal", "sushi", "preference", SCOPE) is not None

    def test_given_a_stricter_threshold_when_matched_then_the_paraphrase_is_no_longer_a_duplicate(
        self, tmp_path: Path
    ) -> None:
        engram = _engram(tmp_path, minilm())
        _remember(engram, "favorite_food", "pizza", category="preference")
        strict = DedupThresholds(duplicate=0.99, contradiction=0.99)
        assert _dedup(engram, strict).match("t1", "u1", "favourite_meal", "pizza", "preference", SCOPE) is None


class TestHashing:
    def test_given_near_identical_wording_when_matched_then_it_is_a_duplicate(self, tmp_path: Path) -> None:
        engram = _engram(tmp_path, HashingEmbedder())
        pizza = _remember(engram, "favorite_food", "pizza", category="preference")
        match = _dedup(engram).match("t1", "u1", "favorite-food", "Pizza", "preference", SCOPE)
        assert match is not None
        assert (match.entry.id, match.kind) == (pizza, "duplicate")

    def test_given_the_same_subject_with_another_value_when_matched_then_it_is_a_contradiction(
        self, tmp_path: Path
    ) -> None:
        engram = _engram(tmp_path, HashingEmbedder())
        pizza = _remember(engram, "favorite_food", "pizza", category="preference")
        match = _dedup(engram).match("t1", "u1", "favorite_foods", "sushi", "preference", SCOPE)
        assert match is not None
        assert (match.entry.id, match.kind) == (pizza, "contradiction")

    def test_given_a_paraphrase_when_matched_then_hashing_does_not_claim_a_duplicate(self, tmp_path: Path) -> None:
        engram = _engram(tmp_path, HashingEmbedder())
        _remember(engram, "favorite_food", "pizza", category="preference")
        assert _dedup(engram).match("t1", "u1", "favourite_meal", "sushi", "preference", SCOPE) is None


class TestWhatIsNeverMatched:
    @pytest.mark.parametrize("visibility", [Visibility.SELF, Visibility.GROUP])
    def test_given_another_agents_entry_when_matched_then_it_is_not_a_candidate(
        self, tmp_path: Path, visibility: Visibility
    ) -> None:
        engram = _engram(tmp_path, HashingEmbedder())
        p = principal("t1", "agent-b", Role.WRITER, groups=("team",))
        engram.memory.upsert(p, "u1", [UpsertCommand(key="favorite_food", value="pizza", visibility=visibility)])
        engram.sync_index()
        scope = VisibilityScope("agent-a", ("team",))
        assert _dedup(engram).match("t1", "u1", "favorite_food", "pizza", "preference", scope) is None

    def test_given_a_global_entry_when_matched_then_it_is_a_candidate(self, tmp_path: Path) -> None:
        engram = _engram(tmp_path, HashingEmbedder())
        pizza = _remember(engram, "favorite_food", "pizza", agent="agent-b", visibility=Visibility.GLOBAL)
        match = _dedup(engram).match("t1", "u1", "favorite_food", "pizza", "preference", SCOPE)
        assert match is not None and match.entry.id == pizza

    def test_given_an_expired_entry_when_matched_then_it_is_ignored(self, tmp_path: Path) -> None:
        clock = ManualClock()
        engram = _engram(tmp_path, HashingEmbedder(), clock)
        p = principal("t1", "agent-a", Role.WRITER)
        engram.agents.put("t1", "agent-a", AgentConfig(user_memory_config=UserMemoryConfig(ttl_hours={"context": 24})))
        engram.memory.upsert(p, "u1", [UpsertCommand(key="mood", value="tired", category="context")])
        engram.sync_index()
        clock.advance(timedelta(days=2))
        assert _dedup(engram).match("t1", "u1", "mood", "tired", "context", SCOPE) is None

    def test_given_a_superseded_entry_when_matched_then_only_the_current_value_counts(self, tmp_path: Path) -> None:
        engram = _engram(tmp_path, HashingEmbedder())
        _remember(engram, "favorite_food", "pizza")
        sushi = _remember(engram, "favorite_food", "sushi")
        match = _dedup(engram).match("t1", "u1", "favorite_food", "pizza", "preference", SCOPE)
        assert match is not None
        assert (match.entry.id, match.kind) == (sushi, "contradiction")

    def test_given_another_tenant_when_matched_then_its_entries_are_invisible(self, tmp_path: Path) -> None:
        engram = _engram(tmp_path, HashingEmbedder())
        _remember(engram, "favorite_food", "pizza")
        assert _dedup(engram).match("t2", "u1", "favorite_food", "pizza", "preference", SCOPE) is None


@pytest.mark.parametrize(("name", "least_right"), [("hash", 33), ("minilm", 49)])
def test_the_calibrated_thresholds_never_merge_a_different_fact_on_the_labelled_pairs(
    name: str, least_right: int
) -> None:
    """bench/dedup_calibration.py's pairs: a wrong merge loses data, a missed duplicate
    only leaves a second entry for dream to merge; so no wrong merge, and no fewer right
    than measured when the thresholds were set (docs/recall.md)."""
    from bench.dedup_calibration import score, similarities

    embedder: Embedder = HashingEmbedder() if name == "hash" else minilm()
    result = score(similarities(embedder), thresholds_for(embedder))
    assert result["wrongMerges"] == 0, result["confusion"]
    assert result["correct"] >= least_right, result["confusion"]


def test_given_the_same_candidates_again_when_matched_then_only_new_texts_are_embedded(tmp_path: Path) -> None:
    """Every write to a new key is matched: a user's candidates are embedded once, not per write."""
    real = HashingEmbedder()
    engram = _engram(tmp_path, real)
    _remember(engram, "favorite_food", "pizza", category="preference")
    _remember(engram, "employer", "Acme Corp")
    embedded: list[str] = []

    class Counting:
        model_id, dimension, dedup_threshold = real.model_id, real.dimension, real.dedup_threshold

        def embed(self, texts: Any) -> Any:
            embedded.extend(texts)
            return real.embed(texts)

    dedup = SemanticDedup(engram.store, engram.index, Counting(), engram.clock)
    first = dedup.match("t1", "u1", "favorite_foods", "pizza", "preference", SCOPE)
    seen = len(embedded)
    again = dedup.match("t1", "u1", "favorite_foods", "pizza", "preference", SCOPE)
    assert first == again and first is not None and first.kind == "duplicate"
    assert seen > 2 and len(embedded) == seen  # the second match embedded nothing at all
    dedup.match("t1", "u1", "favourite_meal", "sushi", "preference", SCOPE)
    assert embedded[seen:] == ["favourite meal: sushi", "favourite meal"]  # only the new write's texts


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("favorite_food", "least_favorite_food"),
        ("wife_name", "ex_wife_name"),
        ("sisterName", "brother_name"),
        ("mom_birthday", "dad_birthday"),
        ("home_address", "work_address"),
        ("likes", "dislikes"),
        ("favorite_season", "worst_season"),
        ("first_car", "current_car"),
    ],
)
def test_keys_differing_by_a_qualifier_or_a_member_of_a_closed_class_are_distinct_subjects(a: str, b: str) -> None:
    from engram.domain.subjects import distinct_subjects

    assert distinct_subjects(a, b) and distinct_subjects(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("favorite_food", "favourite_meal"),
        ("favorite_color", "favourite_colour"),
        ("mum_birthday", "mother_birthday"),
        ("employer", "works_at"),
        ("preferred_language", "favorite_programming_language"),
        ("likes:coffee", "likes:coffees"),
        ("spouse_name", "wife_name"),
    ],
)
def test_spelling_variants_and_paraphrases_are_not_distinct_subjects(a: str, b: str) -> None:
    from engram.domain.subjects import distinct_subjects

    assert not distinct_subjects(a, b) and not distinct_subjects(b, a)
