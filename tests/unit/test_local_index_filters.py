"""The local index's vectorised filters agree with its per-document ones (#14 recall speed).

``FilterRows.passing`` applies a search's filters to every row of a user's matrix at once and
``_nearest`` takes the top k of what passes; both must choose exactly what the
per-document ``passes`` and a full stable sort would, ties included.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import numpy as np
from engram.adapters.local_index import _nearest, _UserDocs
from engram.adapters.local_index_filters import DocMeta, FilterRows, QueryFilter, passes
from engram.domain.policies import VisibilityScope
from engram.domain.serialization import ts
from engram.ports import DocKind, SearchQuery

T0 = datetime(2026, 1, 15, tzinfo=UTC)


def _metas(rng: random.Random, n: int) -> list[DocMeta]:
    out = []
    for i in range(n):
        kind = rng.choice([DocKind.MEMORY, DocKind.MESSAGE])
        out.append(
            DocMeta(
                id=f"d{i}",
                kind=kind.value,
                visibility=rng.choice(["self", "group", "global"]),
                agent=rng.choice(["a", "b", "c"]),
                groups=tuple(rng.sample(["g1", "g2", "g3"], rng.randint(0, 2))),
                category=rng.choice([None, "fact", "preference", "context"]),
                thread=rng.choice([None, "t1", "t2", "t3"]),
                expires=rng.choice([None, ts(T0 - timedelta(days=1)), ts(T0 + timedelta(days=1))]),
                at=rng.choice([None, ts(T0 - timedelta(days=rng.randint(0, 60)))]),
                doc_kind=kind,
            )
        )
    return out


def _queries(rng: random.Random, count: int) -> list[SearchQuery]:
    out = []
    for _ in range(count):
        start = T0 - timedelta(days=rng.randint(0, 60))
        out.append(
            SearchQuery(
                tenant_id="t",
                user_id="u",
                now=T0,
                scope=rng.choice(
                    [
                        None,
                        VisibilityScope("a", ()),
                        VisibilityScope("b", ("g2",)),
                        VisibilityScope("c", ("g1", "g3")),
                        VisibilityScope("x", (), everything=True),
                    ]
                ),
                kinds=rng.choice([(DocKind.MEMORY,), (DocKind.MESSAGE,), (DocKind.MEMORY, DocKind.MESSAGE)]),
                categories=rng.choice([None, ("fact",), ("preference", "context")]),
                thread_ids=rng.choice([None, ("t1",), ("t2", "t3")]),
                exclude_thread_ids=rng.choice([(), ("t1",)]),
                k=rng.randint(1, 40),
                occurred_from=rng.choice([None, start]),
                occurred_to=rng.choice([None, start + timedelta(days=rng.randint(1, 30))]),
            )
        )
    return out


def test_the_row_filters_agree_with_the_per_document_filter() -> None:
    rng = random.Random(14)
    metas = _metas(rng, 400)
    rows = FilterRows.of(metas)
    for query in _queries(rng, 300):
        f = QueryFilter.of(query)
        expected = [passes(m, query, f) for m in metas]
        assert rows.passing(query, f).tolist() == expected, query


def test_nearest_is_the_first_k_that_pass_in_a_stable_order_ties_included() -> None:
    rng = random.Random(19)
    metas = _metas(rng, 300)
    # Few distinct values, so many rows tie (the same text embedded twice ties exactly).
    matrix = np.array([[rng.choice([0.0, 0.25, 0.5, 1.0])] for _ in metas], dtype=np.float32)
    rowids = list(range(1000, 1000 + len(metas)))
    docs = _UserDocs(
        gen=1,
        model_id="m",
        metas=dict(zip(rowids, metas, strict=True)),
        vec_rowids=rowids,
        vec_row={r: i for i, r in enumerate(rowids)},
        matrix=matrix,
        rows=FilterRows.of(metas),
    )
    sims = matrix[:, 0].copy()
    for query in _queries(rng, 300):
        f = QueryFilter.of(query)
        ordered = np.argsort(-sims, kind="stable")
        expected = [(rowids[i], float(sims[i])) for i in ordered if passes(metas[i], query, f)][: query.k]
        assert _nearest(docs, sims, query, f) == expected, query
