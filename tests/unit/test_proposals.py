"""Proposals: agents propose, the user approves (as a change by the user) or rejects."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from engram.container import Engram
from engram.domain.agent_config import AgentConfig
from engram.domain.blocks import BlockEdit
from engram.domain.errors import (
    Forbidden,
    GuardrailViolation,
    MemoryDisabled,
    ProposalNotOpen,
    SensitiveDataRejected,
)
from engram.domain.models import ActorType, Role, Status, Visibility
from engram.domain.policies import VisibilityScope
from engram.domain.proposals import (
    BlockChange,
    EntryRemoval,
    EntryUpsert,
    Proposal,
    ProposalStatus,
    needs_approval,
    new_proposal_id,
    superseded_by,
)
from engram.domain.writes import Outcome
from engram.service.memory import UpsertCommand

from tests.support import T0, ManualClock, engram_for, principal

AGENT = principal("t1", "agent-a")
OTHER = principal("t1", "agent-b")
ADMIN = principal("t1", "console", Role.ADMIN)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def engram(tmp_path: Path, clock: ManualClock) -> Engram:
    e = engram_for(tmp_path, clock=clock)
    e.agents.put("t1", "agent-a", AgentConfig(require_approval=("preference", "block:human")))
    return e


def _all() -> VisibilityScope:
    return VisibilityScope("console", everything=True)


def _entries(engram: Engram, user: str = "u1") -> list[tuple[str, str, str]]:
    page = engram.memory.list_memories(ADMIN, user, _all())
    return sorted((e.key, e.value, e.status.value) for e in page.items)


class TestRequireApproval:
    def test_given_require_approval_when_the_agent_upserts_then_a_proposal_is_made_and_nothing_is_written(
        self, engram: Engram
    ) -> None:
        [result] = engram.memory.upsert(AGENT, "u1", [UpsertCommand("drink", "tea", "preference")])
        assert result.outcome is Outcome.PROPOSED
        assert result.proposal is not None and result.proposal.status is ProposalStatus.PENDING
        assert result.entry.value == "tea"  # the preview of what approval would write
        assert engram.store.get_entry("t1", "u1", result.entry.id) is None
        assert _entries(engram) == []

    def test_given_require_approval_for_one_category_when_another_is_written_then_it_is_written(
        self, engram: Engram
    ) -> None:
        [result] = engram.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Oslo", "fact")])
        assert result.outcome is Outcome.CREATED and result.proposal is None

    def test_given_a_proposal_for_a_sensitive_value_when_proposed_then_it_is_refused_like_a_write(
        self, engram: Engram
    ) -> None:
        with pytest.raises(SensitiveDataRejected):
            engram.memory.upsert(AGENT, "u1", [UpsertCommand("card", "4111 1111 1111 1111", "preference")])

    @pytest.mark.parametrize(
        ("rules", "category", "expected"),
        [
            ((), "fact", False),
            (("*",), "block:human", True),
            (("fact",), "fact", True),
            (("fact",), "preference", False),
            (("block:*",), "block:persona", True),
            (("block:*",), "fact", False),
            (("block:human",), "block:persona", False),
        ],
    )
    def test_given_approval_rules_when_matched_then_star_and_block_wildcards_apply(
        self, rules: tuple[str, ...], category: str, expected: bool
    ) -> None:
        assert needs_approval(rules, category) is expected


class TestApprove:
    def test_given_a_pending_proposal_when_approved_then_exactly_the_proposed_change_is_applied_by_the_user(
        self, engram: Engram
    ) -> None:
        p = engram.proposals.propose(
            AGENT,
            "u1",
            EntryUpsert(
                "drink", "green tea", "preference", Visibility.SELF, statement="I like green tea", importance=70
            ),
            reason="the user said so",
        )
        decision = engram.proposals.approve(ADMIN, "u1", p.id, note="yes")
        assert decision.write is not None
        entry = decision.write.entry
        assert (entry.key, entry.value, entry.category, entry.visibility) == (
            "drink",
            "green tea",
            "preference",
            Visibility.SELF,
        )
        assert (entry.statement, entry.importance, entry.source_agent_id) == ("I like green tea", 70, "agent-a")
        assert _entries(engram) == [("drink", "green tea", "active")]
        [record] = engram.store.history("t1", "u1", entry.identity_id).items
        assert record.actor.type is ActorType.USER and record.actor.id == "u1"
        assert record.reason == f"approved proposal {p.id}"
        stored = engram.proposals.get(ADMIN, "u1", p.id)
        assert stored.status is ProposalStatus.APPROVED
        assert stored.decided_by is not None and stored.decided_by.type is ActorType.USER
        assert stored.result["entryId"] == entry.id and stored.note == "yes"

    def test_given_an_approved_proposal_when_approved_again_then_it_is_refused_and_nothing_changes(
        self, engram: Engram
    ) -> None:
        p = engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "tea", "preference", Visibility.SELF))
        engram.proposals.approve(ADMIN, "u1", p.id)
        with pytest.raises(ProposalNotOpen) as err:
            engram.proposals.approve(ADMIN, "u1", p.id)
        assert err.value.code == "proposal_decided"
        assert _entries(engram) == [("drink", "tea", "active")]

    def test_given_a_forget_proposal_when_approved_then_the_entry_is_deleted_by_the_user(self, engram: Engram) -> None:
        [written] = engram.memory.upsert(AGENT, "u1", [UpsertCommand("city", "Oslo", "fact")])
        p = engram.proposals.propose(AGENT, "u1", EntryRemoval(written.entry.id, "", ""))
        assert p.before is not None and p.before["value"] == "Oslo" and p.after is None
        decision = engram.proposals.approve(ADMIN, "u1", p.id)
        assert decision.removed is not None and decision.removed.status is Status.DELETED
        last = engram.store.history("t1", "u1", written.entry.identity_id).items[-1]
        assert last.actor.type is ActorType.USER

    def test_given_an_agent_key_when_it_approves_then_it_is_forbidden(self, engram: Engram) -> None:
        p = engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "tea", "preference", Visibility.SELF))
        with pytest.raises(Forbidden):
            engram.proposals.approve(AGENT, "u1", p.id)
        with pytest.raises(Forbidden):
            engram.proposals.reject(AGENT, "u1", p.id)

    def test_given_two_concurrent_approvals_when_they_race_then_the_change_applies_once(self, engram: Engram) -> None:
        p = engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "tea", "preference", Visibility.SELF))
        outcomes: list[str] = []
        barrier = threading.Barrier(4)

        def approve() -> None:
            barrier.wait()
            try:
                engram.proposals.approve(ADMIN, "u1", p.id)
                outcomes.append("ok")
            except ProposalNotOpen as exc:
                outcomes.append(exc.code)

        threads = [threading.Thread(target=approve) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert outcomes.count("ok") == 1
        entry = engram.memory.list_memories(ADMIN, "u1", _all()).items[0]
        assert len(engram.store.history("t1", "u1", entry.identity_id).items) == 1

    def test_given_approval_failing_when_memory_is_off_then_the_proposal_stays_pending(self, engram: Engram) -> None:
        p = engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "tea", "preference", Visibility.SELF))
        engram.users.update_settings(ADMIN, "u1", memory_enabled=False)
        with pytest.raises(MemoryDisabled):
            engram.proposals.approve(ADMIN, "u1", p.id)
        assert engram.proposals.get(ADMIN, "u1", p.id).status is ProposalStatus.PENDING
        engram.users.update_settings(ADMIN, "u1", memory_enabled=True)
        assert engram.proposals.approve(ADMIN, "u1", p.id).proposal.status is ProposalStatus.APPROVED

    def test_given_a_claim_left_by_a_crash_after_the_write_when_approved_again_then_the_write_is_not_repeated(
        self, engram: Engram, clock: ManualClock
    ) -> None:
        p = engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "tea", "preference", Visibility.SELF))
        # Simulate a crash between the write and the record of the decision.
        claimed = replace(p, status=ProposalStatus.APPLYING, claimed_at=clock.now(), revision=p.revision + 1)
        assert engram.proposals.repo.update_proposal(claimed, p.revision)
        engram.proposals._apply(claimed, engram.proposals.blocks._actor(ADMIN, "u1"), ADMIN)
        with pytest.raises(ProposalNotOpen) as err:
            engram.proposals.approve(ADMIN, "u1", p.id)
        assert err.value.code == "proposal_in_progress"
        clock.advance(timedelta(minutes=2))
        decision = engram.proposals.approve(ADMIN, "u1", p.id)
        assert decision.proposal.status is ProposalStatus.APPROVED
        entry = engram.memory.list_memories(ADMIN, "u1", _all()).items[0]
        assert len(engram.store.history("t1", "u1", entry.identity_id).items) == 1

    def test_given_guardrails_tightened_after_proposing_when_approved_then_the_breach_is_reported(
        self, engram: Engram
    ) -> None:
        p = engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "a long value", "preference", Visibility.SELF))
        strict = AgentConfig.model_validate(
            {"requireApproval": ["preference"], "userMemoryConfig": {"guardrails": {"maxValueLength": 3}}}
        )
        engram.agents.put("t1", "agent-a", strict)
        with pytest.raises(GuardrailViolation) as err:
            engram.proposals.approve(ADMIN, "u1", p.id)
        assert err.value.code == "value_too_long"
        assert engram.proposals.get(ADMIN, "u1", p.id).status is ProposalStatus.PENDING

    def test_given_legacy_properties_under_approval_when_approved_then_they_become_global_entries(
        self, engram: Engram
    ) -> None:
        engram.agents.put("t1", "agent-a", AgentConfig(require_approval=("*",)))
        [result] = engram.users.merge_properties(AGENT, "u1", {"lang": "de"})
        assert result.proposal is not None
        engram.proposals.approve(ADMIN, "u1", result.proposal.id)
        assert engram.users.properties(AGENT, "u1") == {"lang": "de"}


class TestRejectSupersedeExpire:
    def test_given_a_pending_proposal_when_rejected_then_nothing_changes(self, engram: Engram) -> None:
        engram.memory.upsert(ADMIN, "u1", [UpsertCommand("drink", "coffee", "preference")])
        before = _entries(engram)
        p = engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "tea", "preference", Visibility.SELF))
        rejected = engram.proposals.reject(ADMIN, "u1", p.id, note="no")
        assert rejected.status is ProposalStatus.REJECTED and rejected.note == "no"
        assert _entries(engram) == before
        with pytest.raises(ProposalNotOpen) as err:
            engram.proposals.approve(ADMIN, "u1", p.id)
        assert err.value.code == "proposal_decided"

    def test_given_a_newer_proposal_for_the_same_entry_when_made_then_the_older_can_no_longer_be_approved(
        self, engram: Engram
    ) -> None:
        old = engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "tea", "preference", Visibility.SELF))
        new = engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "coffee", "preference", Visibility.SELF))
        other = engram.proposals.propose(AGENT, "u1", EntryUpsert("food", "soup", "preference", Visibility.SELF))
        stale = engram.proposals.get(ADMIN, "u1", old.id)
        assert stale.status is ProposalStatus.SUPERSEDED and stale.superseded_by == new.id
        with pytest.raises(ProposalNotOpen) as err:
            engram.proposals.approve(ADMIN, "u1", old.id)
        assert err.value.code == "proposal_superseded"
        assert err.value.details["supersededBy"] == new.id
        assert engram.proposals.get(ADMIN, "u1", other.id).status is ProposalStatus.PENDING
        engram.proposals.approve(ADMIN, "u1", new.id)
        assert _entries(engram) == [("drink", "coffee", "active")]

    def test_given_proposals_of_two_agents_for_the_same_key_when_made_then_neither_supersedes_the_other(
        self, engram: Engram
    ) -> None:
        a = engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "tea", "preference", Visibility.SELF))
        engram.proposals.propose(OTHER, "u1", EntryUpsert("drink", "milk", "preference", Visibility.SELF))
        assert engram.proposals.get(ADMIN, "u1", a.id).status is ProposalStatus.PENDING

    def test_given_an_undecided_proposal_when_its_time_passes_then_it_expires(
        self, engram: Engram, clock: ManualClock
    ) -> None:
        engram.agents.put("t1", "agent-a", AgentConfig(proposal_expiry_hours=2))
        p = engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "tea", "preference", Visibility.SELF))
        assert p.expires_at - p.created_at == timedelta(hours=2)
        clock.advance(timedelta(hours=2, seconds=1))
        assert engram.proposals.get(ADMIN, "u1", p.id).effective_status(clock.now()) is ProposalStatus.EXPIRED
        assert engram.proposals.list_proposals(ADMIN, "u1").items == []
        expired = engram.proposals.list_proposals(ADMIN, "u1", statuses=(ProposalStatus.EXPIRED,)).items
        assert [x.id for x in expired] == [p.id]
        with pytest.raises(ProposalNotOpen) as err:
            engram.proposals.approve(ADMIN, "u1", p.id)
        assert err.value.code == "proposal_expired"
        # An expired proposal is not superseded by a new one: it stays expired.
        engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "milk", "preference", Visibility.SELF))
        assert engram.proposals.get(ADMIN, "u1", p.id).effective_status(clock.now()) is ProposalStatus.EXPIRED

    def test_given_proposals_of_two_agents_when_listed_then_each_agent_sees_its_own_and_the_admin_all(
        self, engram: Engram
    ) -> None:
        a = engram.proposals.propose(AGENT, "u1", EntryUpsert("drink", "tea", "preference", Visibility.SELF))
        b = engram.proposals.propose(OTHER, "u1", EntryUpsert("food", "soup", "fact", Visibility.SELF))
        assert [p.id for p in engram.proposals.list_proposals(AGENT, "u1").items] == [a.id]
        assert {p.id for p in engram.proposals.list_proposals(ADMIN, "u1").items} == {a.id, b.id}
        with pytest.raises(Exception) as err:
            engram.proposals.get(AGENT, "u1", b.id)
        assert getattr(err.value, "code", "") == "not_found"


class TestBlockProposals:
    def test_given_an_agent_needing_approval_when_it_edits_a_block_then_approval_applies_exactly_that_edit(
        self, engram: Engram
    ) -> None:
        engram.blocks.write(ADMIN, "u1", "human", BlockEdit(set={"name": "Alice"}), agent_id="agent-a")
        result = engram.blocks.write(AGENT, "u1", "human", BlockEdit(append={"facts": ("Plays cello",)}))
        assert result.proposal is not None and not result.changed
        assert result.proposal.before == {"name": "Alice", "session_state": "idle"}
        assert result.proposal.after == {"name": "Alice", "session_state": "idle", "facts": ["Plays cello"]}
        block, _ = engram.blocks.get(AGENT, "u1", "human")
        assert block.version == 1 and "facts" not in block.values
        decision = engram.proposals.approve(ADMIN, "u1", result.proposal.id)
        assert decision.block is not None and decision.block.block is not None
        block, _ = engram.blocks.get(AGENT, "u1", "human")
        assert block.version == 2 and block.values["facts"] == ("Plays cello",)
        assert block.updated_by.type is ActorType.USER
        [_, last] = engram.blocks.history(AGENT, "u1", "human").items
        assert last.proposal_id == result.proposal.id and last.actor.type is ActorType.USER

    def test_given_an_agent_needing_approval_when_it_restores_or_deletes_a_block_then_the_user_decides(
        self, engram: Engram
    ) -> None:
        engram.blocks.write(ADMIN, "u1", "human", BlockEdit(set={"name": "Alice"}), agent_id="agent-a")
        engram.blocks.write(ADMIN, "u1", "human", BlockEdit(set={"name": "Bob"}), agent_id="agent-a")
        restore = engram.blocks.restore(AGENT, "u1", "human", 1)
        assert restore.proposal is not None and restore.proposal.reason == "restore of version 1"
        assert engram.blocks.get(AGENT, "u1", "human")[0].values["name"] == "Bob"
        with pytest.raises(Forbidden):
            engram.blocks.delete(AGENT, "u1", "human")
        engram.proposals.approve(ADMIN, "u1", restore.proposal.id)
        assert engram.blocks.get(AGENT, "u1", "human")[0].values["name"] == "Alice"

    def test_given_two_block_proposals_when_the_second_is_made_then_the_first_is_superseded(
        self, engram: Engram
    ) -> None:
        first = engram.proposals.propose(AGENT, "u1", BlockChange("human", BlockEdit(set={"name": "Al"})))
        second = engram.proposals.propose(AGENT, "u1", BlockChange("human", BlockEdit(set={"name": "Alice"})))
        with pytest.raises(ProposalNotOpen) as err:
            engram.proposals.approve(ADMIN, "u1", first.id)
        assert err.value.code == "proposal_superseded"
        engram.proposals.approve(ADMIN, "u1", second.id)
        assert engram.blocks.get(AGENT, "u1", "human")[0].values["name"] == "Alice"

    def test_given_a_block_proposal_that_can_never_apply_when_proposed_then_it_is_refused_now(
        self, engram: Engram
    ) -> None:
        with pytest.raises(GuardrailViolation) as err:
            engram.proposals.propose(
                AGENT, "u1", BlockChange("persona", BlockEdit(set={"constraints": ["a", "b", "c", "d"]}))
            )
        assert err.value.code == "block_list_too_long"


class TestSupersededBy:
    """The pure rule both proposal stores apply: one open proposal per target."""

    def _proposal(self, target: str, *, minutes: int = 0, status: ProposalStatus = ProposalStatus.PENDING) -> Proposal:
        at = T0 + timedelta(minutes=minutes)
        change = EntryUpsert("drink", "tea", "preference", Visibility.SELF, statement=None)
        return Proposal(
            new_proposal_id(), "t1", "u1", "agent-a", target, change, "said so", status, at, at + timedelta(days=7)
        )

    def test_given_pending_proposals_when_a_newer_one_comes_then_only_open_ones_of_its_target_are_replaced(
        self,
    ) -> None:
        # Given an open proposal for the target, one for another target, a decided one and an expired one
        open_same = self._proposal("id-1")
        other_target = self._proposal("id-2")
        decided = self._proposal("id-1", status=ProposalStatus.APPROVED)
        expired = replace(self._proposal("id-1"), expires_at=T0 + timedelta(minutes=1))
        newer = self._proposal("id-1", minutes=5)
        now = T0 + timedelta(minutes=5)

        # When the newer proposal supersedes what is pending
        gone = superseded_by(newer, [open_same, other_target, decided, expired, newer], now)

        # Then only the open proposal of the same target is replaced, linked to the newer one
        assert [g.id for g in gone] == [open_same.id]
        assert gone[0].status is ProposalStatus.SUPERSEDED
        assert gone[0].superseded_by == newer.id
        assert gone[0].decided_at == now
        assert gone[0].revision == open_same.revision + 1
