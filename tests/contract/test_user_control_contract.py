"""The ProposalRepository and BlockRepository contracts: every backend of the ``store``
fixture (the embedded store, DynamoDB on moto server) must pass these, unchanged."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from engram.domain.agent_config import AgentConfig
from engram.domain.archival import ArchivalKind, ArchivalRecord, ArchivedItem, new_archival_id
from engram.domain.block_schema import MemoryBlocksConfig
from engram.domain.blocks import BlockChangeKind, BlockEdit, BlockVersion, MemoryBlock
from engram.domain.errors import VersionConflict
from engram.domain.models import Actor, ActorType, Role, Visibility
from engram.domain.proposals import (
    BlockChange,
    EntryUpsert,
    Proposal,
    ProposalStatus,
    new_proposal_id,
)
from engram.ports import BlockRepository, ProposalQuery, ProposalRepository
from engram.settings import Settings

from tests.support import T0, backend_for, engram_for, principal

AGENT = Actor(ActorType.AGENT, "agent-a")


@pytest.fixture
def proposals(store: Any, tmp_path: Path) -> ProposalRepository:
    return backend_for(store, Settings(data_dir=tmp_path)).proposal_repository()


@pytest.fixture
def blocks(store: Any, tmp_path: Path) -> BlockRepository:
    return backend_for(store, Settings(data_dir=tmp_path)).block_repository()


def _proposal(
    target: str = "identity-1", *, user: str = "u1", tenant: str = "t1", agent: str = "agent-a", minutes: int = 0
) -> Proposal:
    at = T0 + timedelta(minutes=minutes)
    return Proposal(
        id=new_proposal_id(),
        tenant_id=tenant,
        user_id=user,
        agent_id=agent,
        target_id=target,
        change=EntryUpsert("drink", "tea", "preference", Visibility.SELF, statement=None),
        reason="said so",
        status=ProposalStatus.PENDING,
        created_at=at,
        expires_at=at + timedelta(days=7),
        before={"value": "coffee"},
        after={"value": "tea"},
    )


class TestProposals:
    def test_given_a_proposal_when_read_back_then_every_field_survives(self, proposals: ProposalRepository) -> None:
        p = _proposal()
        block = replace(
            _proposal("block:agent-a:human"),
            change=BlockChange("human", BlockEdit(set={"role": None, "name": "Al"}, append={"facts": ("x",)})),
        )
        assert proposals.create_proposal(p, T0) == []
        assert proposals.create_proposal(block, T0) == []
        assert proposals.get_proposal("t1", "u1", p.id) == p
        # A null that clears a field must survive (DynamoDB maps drop nulls).
        assert proposals.get_proposal("t1", "u1", block.id) == block
        assert proposals.get_proposal("t2", "u1", p.id) is None
        assert proposals.get_proposal("t1", "u2", p.id) is None

    def test_given_a_newer_proposal_for_the_same_target_when_created_then_the_open_older_is_superseded(
        self, proposals: ProposalRepository
    ) -> None:
        old = _proposal()
        expired = replace(_proposal(), expires_at=T0 - timedelta(seconds=1), created_at=T0 - timedelta(days=8))
        other_target = _proposal("identity-2")
        other_user = _proposal(user="u2")
        for p in (expired, old, other_target, other_user):
            proposals.create_proposal(p, T0)
        new = _proposal(minutes=1)
        assert proposals.create_proposal(new, T0 + timedelta(minutes=1)) == [old.id]
        stored = proposals.get_proposal("t1", "u1", old.id)
        assert stored is not None and stored.status is ProposalStatus.SUPERSEDED and stored.superseded_by == new.id
        assert stored.revision == old.revision + 1
        for untouched in (expired, other_target):
            assert proposals.get_proposal("t1", "u1", untouched.id) == untouched
        assert proposals.get_proposal("t1", "u2", other_user.id) == other_user

    def test_given_a_revision_when_updated_then_only_the_holder_of_the_current_revision_wins(
        self, proposals: ProposalRepository
    ) -> None:
        p = _proposal()
        proposals.create_proposal(p, T0)
        claimed = replace(p, status=ProposalStatus.APPLYING, claimed_at=T0, revision=2)
        assert proposals.update_proposal(claimed, 1) is True
        assert proposals.update_proposal(replace(p, status=ProposalStatus.REJECTED, revision=2), 1) is False
        assert proposals.get_proposal("t1", "u1", p.id) == claimed

    def test_given_many_racing_claims_when_they_update_then_exactly_one_wins(
        self, proposals: ProposalRepository
    ) -> None:
        p = _proposal()
        proposals.create_proposal(p, T0)
        wins: list[int] = []
        barrier = threading.Barrier(8)

        def claim(n: int) -> None:
            barrier.wait()
            if proposals.update_proposal(replace(p, status=ProposalStatus.APPLYING, note=str(n), revision=2), 1):
                wins.append(n)

        threads = [threading.Thread(target=claim, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(wins) == 1
        stored = proposals.get_proposal("t1", "u1", p.id)
        assert stored is not None and stored.note == str(wins[0])

    def test_given_proposals_when_listed_then_newest_first_filtered_and_paged(
        self, proposals: ProposalRepository
    ) -> None:
        made = [_proposal(f"identity-{i}", agent="agent-a" if i % 2 else "agent-b", minutes=i) for i in range(7)]
        for p in made:
            proposals.create_proposal(p, p.created_at)
        expired = replace(_proposal("identity-x", minutes=-60 * 24 * 8), expires_at=T0 - timedelta(hours=1))
        proposals.create_proposal(expired, expired.created_at)
        rejected = replace(made[3], status=ProposalStatus.REJECTED, revision=2)
        assert proposals.update_proposal(rejected, 1)
        now = T0 + timedelta(hours=1)

        def ids(**kw: Any) -> list[str]:
            out: list[str] = []
            cursor = None
            while True:
                page = proposals.list_proposals("t1", "u1", ProposalQuery(now=now, limit=2, cursor=cursor, **kw))
                assert len(page.items) <= 2
                out += [p.id for p in page.items]
                cursor = page.next_cursor
                if cursor is None:
                    return out

        newest_first = [p.id for p in reversed(made)]
        assert ids() == [*newest_first, expired.id]
        assert ids(statuses=(ProposalStatus.PENDING,)) == [i for i in newest_first if i != made[3].id]
        assert ids(statuses=(ProposalStatus.EXPIRED,)) == [expired.id]
        assert ids(statuses=(ProposalStatus.REJECTED,)) == [made[3].id]
        assert ids(agent_id="agent-b") == [p.id for p in reversed(made) if p.agent_id == "agent-b"]
        assert ids(target_id="identity-2") == [made[2].id]
        assert proposals.list_proposals("t2", "u1", ProposalQuery(now=now)).items == []

    def test_given_a_user_when_erased_then_their_proposals_go_and_no_one_elses(
        self, proposals: ProposalRepository
    ) -> None:
        mine = [_proposal(f"i{i}") for i in range(3)]
        theirs = [_proposal(user="u2"), _proposal(tenant="t2")]
        for p in (*mine, *theirs):
            proposals.create_proposal(p, T0)
        assert proposals.erase_user("t1", "u1") == {"proposals": 3}
        assert proposals.list_proposals("t1", "u1", ProposalQuery(now=T0)).items == []
        assert proposals.get_proposal("t1", "u2", theirs[0].id) == theirs[0]
        assert proposals.get_proposal("t2", "u1", theirs[1].id) == theirs[1]


def _version(
    values: dict[str, Any], version: int, *, agent: str = "agent-a", name: str = "human", user: str = "u1"
) -> BlockVersion:
    at = T0 + timedelta(seconds=version)
    block = MemoryBlock(
        "t1", user, agent, name, values, version, T0, at, AGENT, threshold=0.75, recent_rotations=(True,)
    )
    kind = BlockChangeKind.CREATED if version == 1 else BlockChangeKind.UPDATED
    return BlockVersion(block, kind, AGENT, "edited", at, proposal_id="prp_" + "0" * 24 if version == 2 else None)


def _archival(text: str, *, agent: str = "agent-a", user: str = "u1", seconds: int = 0) -> ArchivalRecord:
    return ArchivalRecord(
        new_archival_id(),
        "t1",
        user,
        agent,
        "human",
        ArchivalKind.ROTATION,
        text,
        (ArchivedItem("facts", text),),
        T0 + timedelta(seconds=seconds),
        1,
        T0 + timedelta(days=30),
    )


class TestBlocks:
    def test_given_versions_when_committed_then_the_block_and_its_history_read_back_exactly(
        self, blocks: BlockRepository
    ) -> None:
        v1 = _version({"name": "Alice", "facts": ("a", "b")}, 1)
        v2 = _version({"name": "Alice", "role": "x" * 3000}, 2)
        blocks.commit_block(v1, None)
        blocks.commit_block(v2, 1)
        assert blocks.get_block("t1", "u1", "agent-a", "human") == v2.block
        assert blocks.block_version("t1", "u1", "agent-a", "human", 1) == v1
        assert blocks.block_version("t1", "u1", "agent-a", "human", 3) is None
        page = blocks.block_history("t1", "u1", "agent-a", "human", limit=1)
        assert page.items == [v1] and page.next_cursor is not None
        assert blocks.block_history("t1", "u1", "agent-a", "human", 5, page.next_cursor).items == [v2]
        assert blocks.block_history_of_user("t1", "u1") == [v1, v2]
        assert blocks.get_block("t1", "u1", "agent-b", "human") is None

    def test_given_a_stale_expected_version_when_committed_then_nothing_is_written(
        self, blocks: BlockRepository
    ) -> None:
        blocks.commit_block(_version({"name": "A"}, 1), None)
        with pytest.raises(VersionConflict):
            blocks.commit_block(_version({"name": "B"}, 2), None)
        rec = _archival("should not stay")
        with pytest.raises(VersionConflict):
            blocks.commit_block(_version({"name": "C"}, 3), 2, [rec])
        assert blocks.get_block("t1", "u1", "agent-a", "human") == _version({"name": "A"}, 1).block
        assert blocks.get_archival("t1", "u1", [rec.id]) == []
        assert [v.version for v in blocks.block_history_of_user("t1", "u1")] == [1]

    def test_given_racing_writers_of_one_version_when_they_commit_then_exactly_one_wins(
        self, blocks: BlockRepository
    ) -> None:
        blocks.commit_block(_version({"name": "A"}, 1), None)
        wins: list[int] = []
        barrier = threading.Barrier(6)

        def write(n: int) -> None:
            barrier.wait()
            try:
                blocks.commit_block(_version({"name": f"W{n}"}, 2), 1, [_archival(f"from {n}")])
                wins.append(n)
            except VersionConflict:
                pass

        threads = [threading.Thread(target=write, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(wins) == 1
        block = blocks.get_block("t1", "u1", "agent-a", "human")
        assert block is not None and block.values["name"] == f"W{wins[0]}"
        assert [r.text for r in blocks.list_archival("t1", "u1").items] == [f"from {wins[0]}"]

    def test_given_blocks_of_several_agents_when_listed_then_by_agent_then_name(self, blocks: BlockRepository) -> None:
        for agent, name in (("agent-b", "human"), ("agent-a", "persona"), ("agent-a", "human")):
            blocks.commit_block(_version({"name": "A"}, 1, agent=agent, name=name), None)
        blocks.commit_block(_version({"name": "A"}, 1, user="u2"), None)
        assert [(b.agent_id, b.name) for b in blocks.list_blocks("t1", "u1")] == [
            ("agent-a", "human"),
            ("agent-a", "persona"),
            ("agent-b", "human"),
        ]
        assert [b.name for b in blocks.list_blocks("t1", "u1", "agent-a")] == ["human", "persona"]


class TestArchival:
    def test_given_archival_records_when_listed_then_newest_first_paged_and_per_agent(
        self, blocks: BlockRepository
    ) -> None:
        recs = [_archival(f"r{i}", agent="agent-a" if i < 4 else "agent-b", seconds=i) for i in range(6)]
        blocks.commit_block(_version({"name": "A"}, 1), None, recs[:3])
        blocks.commit_block(_version({"name": "A"}, 2), 1, recs[3:])
        blocks.commit_block(_version({"name": "A"}, 1, user="u2"), None, [_archival("other", user="u2")])
        seen: list[str] = []
        cursor = None
        while True:
            page = blocks.list_archival("t1", "u1", limit=4, cursor=cursor)
            seen += [r.text for r in page.items]
            cursor = page.next_cursor
            if cursor is None:
                break
        assert seen == [f"r{i}" for i in reversed(range(6))]
        assert [r.text for r in blocks.list_archival("t1", "u1", "agent-b").items] == ["r5", "r4"]
        got = blocks.get_archival("t1", "u1", [recs[0].id, recs[5].id, "arc_" + "f" * 24])
        assert {r.id: r for r in got} == {recs[0].id: recs[0], recs[5].id: recs[5]}

    def test_given_unindexed_records_when_marked_then_they_leave_the_backlog(self, blocks: BlockRepository) -> None:
        recs = [_archival(f"r{i}", seconds=i) for i in range(3)]
        blocks.commit_block(_version({"name": "A"}, 1), None, recs)
        assert {r.id for r in blocks.unindexed_archival("t1", "u1")} == {r.id for r in recs}
        blocks.mark_archival_indexed("t1", "u1", [recs[0].id, recs[1].id, "arc_" + "e" * 24])
        assert [r.id for r in blocks.unindexed_archival("t1", "u1")] == [recs[2].id]
        [marked] = blocks.get_archival("t1", "u1", [recs[0].id])
        assert marked.indexed

    def test_given_records_when_deleted_or_the_user_erased_then_they_are_gone(self, blocks: BlockRepository) -> None:
        recs = [_archival(f"r{i}", seconds=i) for i in range(3)]
        blocks.commit_block(_version({"name": "A"}, 1), None, recs)
        blocks.commit_block(_version({"name": "A"}, 1, user="u2"), None, [_archival("keep", user="u2")])
        assert blocks.delete_archival("t1", "u1", [recs[0].id, "arc_" + "d" * 24]) == 1
        assert [r.id for r in blocks.list_archival("t1", "u1").items] == [recs[2].id, recs[1].id]
        assert blocks.erase_user("t1", "u1") == {"blocks": 1, "blockVersions": 1, "archival": 2}
        assert blocks.list_blocks("t1", "u1") == [] and blocks.list_archival("t1", "u1").items == []
        assert blocks.block_history_of_user("t1", "u1") == []
        assert [r.text for r in blocks.list_archival("t1", "u2").items] == ["keep"]


class TestThroughTheServices:
    def test_given_each_backend_when_a_proposal_is_approved_and_a_block_rotates_then_it_all_holds(
        self, store: Any, tmp_path: Path
    ) -> None:
        engram = engram_for(tmp_path, store=store)
        agent, admin = principal("t1", "agent-a"), principal("t1", "ops", Role.ADMIN)
        engram.agents.put(
            "t1",
            "agent-a",
            AgentConfig(require_approval=("block:human",), memory_blocks=MemoryBlocksConfig(max_chars=200)),
        )
        proposed = engram.blocks.write(agent, "u1", "human", BlockEdit(set={"name": "Alice"}))
        assert proposed.proposal is not None
        engram.proposals.approve(admin, "u1", proposed.proposal.id)
        for i in range(8):
            engram.blocks.write(
                admin, "u1", "human", BlockEdit(append={"facts": (f"fact {i} " + "z" * 40,)}), agent_id="agent-a"
            )
        block, _ = engram.blocks.get(agent, "u1", "human")
        assert block.values["name"] == "Alice" and block.updated_by.type is ActorType.USER
        archived = engram.archival.list_records(agent, "u1").items
        assert archived and engram.archival.search(agent, "u1", "fact 0", mode="keyword")
        receipt = engram.privacy.erase(admin, "u1", "CONFIRM")
        assert receipt.counts["proposals"] == 1 and receipt.counts["archival"] == len(archived)
        assert engram.archival.list_records(agent, "u1").items == []
