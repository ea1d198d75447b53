"""The local index reuses work between the searches of one recall (issue #19, latency):
the last query vector's similarities and the last full-text scan. What it answers must be
what a fresh index (nothing reused) answers, for any kinds and k asked in any order, and
after any write to the index, by this connection or another, for this user or another
(BM25 counts every owner's documents).
"""

from __future__ import annotations

import random
from pathlib import Path

from engram.adapters.local_index import LocalIndex
from engram.ports import DocKind, IndexDocument, SearchHit, SearchQuery

from tests.contract.index_support import unit
from tests.support import T0

WORDS = ["tea", "garden", "puppy", "lemon", "walk", "rain", "book", "river", "bread", "music"]
KINDS = [(DocKind.MEMORY,), (DocKind.MESSAGE,), (DocKind.MEMORY, DocKind.MESSAGE)]


def doc(rng: random.Random, user: str, i: int) -> IndexDocument:
    kind = DocKind.MEMORY if rng.random() < 0.2 else DocKind.MESSAGE
    return IndexDocument(
        id=f"{user}-{i}",
        tenant_id="t1",
        user_id=user,
        kind=kind,
        text=" ".join(rng.choices(WORDS, k=rng.randint(1, 6))),
        vector=unit(*(rng.uniform(-1, 1) for _ in range(4))),
        model_id="m",
        visibility="global",
        source_agent_id="a",
    )


def answer(index: LocalIndex, text: str, vector: list[float], kinds: tuple[DocKind, ...], k: int) -> list[SearchHit]:
    query = SearchQuery(tenant_id="t1", user_id="u1", now=T0, text=text, vector=vector, kinds=kinds, k=k)
    return index.search(query)


def test_searches_of_one_recall_answer_as_a_fresh_index_does(tmp_path: Path) -> None:
    # Given a user of 200 documents of two kinds sharing few words (many equal BM25 scores)
    rng = random.Random(19)
    path = tmp_path / "index.db"
    index = LocalIndex(path)
    index.upsert([doc(rng, "u1", i) for i in range(200)])
    for _ in range(40):
        text = " ".join(rng.sample(WORDS, rng.randint(1, 3)))
        vector = unit(*(rng.uniform(-1, 1) for _ in range(4)))
        # When the same words and vector are searched for several kinds and sizes in a row
        for kinds, k in rng.sample([(kinds, k) for kinds in KINDS for k in (3, 20, 80)], 5):
            # Then each answer is the one an index that reuses nothing gives
            assert answer(index, text, vector, kinds, k) == answer(LocalIndex(path), text, vector, kinds, k)


def test_a_write_by_any_connection_for_any_user_is_seen_by_the_next_search(tmp_path: Path) -> None:
    # Given a user's documents searched once (the scan is kept)
    rng = random.Random(7)
    path = tmp_path / "index.db"
    index, other = LocalIndex(path), LocalIndex(path)
    index.upsert([doc(rng, "u1", i) for i in range(60)])
    vector = unit(1, 0, 0, 0)
    before = answer(index, "tea garden", vector, (DocKind.MESSAGE,), 20)
    for writer, user, n in ((index, "u2", 30), (other, "u3", 30), (other, "u2", 50)):
        # When another user's documents are written (more of them), by this index's connection
        # or another's
        writer.upsert(
            [
                IndexDocument(f"{user}-{i}", "t1", user, DocKind.MESSAGE, "tea tea", None, None, "global", "a")
                for i in range(n)
            ]
        )
        # Then the first user's scores follow (how many documents hold "tea" changed)
        after = answer(index, "tea garden", vector, (DocKind.MESSAGE,), 20)
        assert after == answer(LocalIndex(path), "tea garden", vector, (DocKind.MESSAGE,), 20)
        assert [h.keyword for h in after] != [h.keyword for h in before]
        before = after
