"""The in-process search index: SQLite FTS5 for BM25, numpy for vectors.

It lives in its own SQLite file (or the store's) and can be rebuilt from the store at
any time. Vectors of one user are held in memory as one matrix, loaded on first use
and dropped when that user's documents change: a per-user generation number in the
database tells every process (server, CLI) when its copy is stale.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.adapters.sqlite.scrub import SECURE_DELETE, checkpoint_truncate
from engram.domain.errors import StoreUnavailable
from engram.domain.models import Visibility
from engram.domain.policies import VisibilityScope
from engram.domain.ranking import query_terms
from engram.domain.serialization import parse_ts_opt, ts, ts_opt
from engram.ports import DocKind, IndexDocument, SearchHit, SearchQuery

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS idx_docs (
        rowid INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL,
        meta TEXT NOT NULL, vector BLOB, model_id TEXT,
        UNIQUE (tenant_id, user_id, id))""",
    "CREATE VIRTUAL TABLE IF NOT EXISTS idx_fts USING fts5(owner, text, tokenize='porter unicode61')",
    """CREATE TABLE IF NOT EXISTS idx_generations (tenant_id TEXT NOT NULL, user_id TEXT NOT NULL,
        gen INTEGER NOT NULL, PRIMARY KEY (tenant_id, user_id))""",
    # Bumped by every erasure. An erased user's generation row goes with them, so a new
    # row could repeat a number another process has cached; the epoch tells it apart.
    "CREATE TABLE IF NOT EXISTS idx_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), epoch INTEGER NOT NULL)",
]


# Documents of messages and thread summaries named their thread without its agent until
# threads were keyed by agent (issue #22): ``msg|<thread>|<message>``, ``sum|<thread>``.
# Each document keeps its agent, so the upgrade puts it in the id, once per file.
_ID_WITH_AGENT = "'{prefix}|' || json_extract(meta, '$.agent') || substr(id, 4)"
_UPGRADES = [
    f"""UPDATE idx_docs SET id = {_ID_WITH_AGENT.format(prefix=prefix)},
        meta = json_set(meta, '$.id', {_ID_WITH_AGENT.format(prefix=prefix)})
        WHERE kind = '{kind}' AND id LIKE '{prefix}|%' AND length(id) - length(replace(id, '|', '')) = {pipes}"""
    for prefix, kind, pipes in (("msg", "message", 2), ("sum", "summary", 1))
]
INDEX_VERSION = 1


def _upgrade(conn: sqlite3.Connection) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        if int(conn.execute("PRAGMA user_version").fetchone()[0]) < INDEX_VERSION:
            for sql in _UPGRADES:
                conn.execute(sql)
            conn.execute(f"PRAGMA user_version = {INDEX_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


@dataclass(slots=True)
class _Meta:
    id: str
    kind: str
    visibility: str
    agent: str
    groups: tuple[str, ...]
    category: str | None
    thread: str | None
    expires: str | None
    # What recall ranks on before it reads the store (absent in documents indexed by
    # older versions: recall then reads every candidate, as it used to).
    importance: int | None = None
    confidence: float | None = None
    updated: str | None = None
    at: str | None = None  # when it occurred (IndexDocument.occurred_at), sortable text
    # Parsed once when the user's documents are loaded, not on every hit.
    doc_kind: DocKind = DocKind.MEMORY
    updated_at: datetime | None = None
    occurred_at: datetime | None = None
    speaker: str | None = None  # who said it (messages; absent in older documents)


# Stands for "none" in the per-row text arrays: no id, category or thread can be it.
_NONE = "\x00"


@dataclass(slots=True)
class _Rows:
    """What ``_passes`` reads, one array per field, one element per matrix row: the
    filters of a vector search are then a few array operations instead of a Python
    call per document (a user of 1,000 messages walked them all for a time window)."""

    kind: npt.NDArray[np.str_]
    expires: npt.NDArray[np.str_]  # "" for never
    category: npt.NDArray[np.str_]
    thread: npt.NDArray[np.str_]
    at: npt.NDArray[np.str_]  # "" for unknown
    visibility: npt.NDArray[np.str_]
    agent: npt.NDArray[np.str_]
    groups: dict[int, tuple[str, ...]]  # matrix row -> groups, for group-visible rows only

    @classmethod
    def of(cls, metas: Sequence[_Meta]) -> _Rows:
        def text(values: list[str]) -> npt.NDArray[np.str_]:
            return np.array(values, dtype=np.str_) if values else np.zeros(0, dtype=np.str_)

        return cls(
            kind=text([m.kind for m in metas]),
            expires=text([m.expires or "" for m in metas]),
            category=text([_NONE if m.category is None else m.category for m in metas]),
            thread=text([_NONE if m.thread is None else m.thread for m in metas]),
            at=text([m.at or "" for m in metas]),
            visibility=text([m.visibility for m in metas]),
            agent=text([m.agent for m in metas]),
            groups={i: m.groups for i, m in enumerate(metas) if m.visibility == Visibility.GROUP.value},
        )

    def passing(self, query: SearchQuery, f: _Filter) -> npt.NDArray[np.bool_]:
        """``_passes`` for every row at once."""
        ok = np.isin(self.kind, f.kinds)
        ok &= (self.expires == "") | (self.expires > f.now)
        if query.categories is not None:
            ok &= np.isin(self.category, list(query.categories))
        if query.thread_ids is not None:
            ok &= np.isin(self.thread, list(query.thread_ids))
        if query.exclude_thread_ids:
            ok &= ~np.isin(self.thread, list(query.exclude_thread_ids))
        if f.windowed:
            ok &= self.at != ""
            if f.occurred_from is not None:
                ok &= self.at >= f.occurred_from
            if f.occurred_to is not None:
                ok &= self.at < f.occurred_to
        scope = query.scope
        if scope is not None and not scope.everything:
            seen = (self.visibility == Visibility.GLOBAL.value) | (self.agent == scope.agent_id)
            for i, groups in self.groups.items():
                if any(g in scope.group_ids for g in groups):
                    seen[i] = True
            ok &= seen
        return ok


@dataclass(slots=True)
class _UserDocs:
    gen: int
    model_id: str | None
    metas: dict[int, _Meta]  # every document of the user, by rowid
    vec_rowids: list[int]  # the rowid of each matrix row
    vec_row: dict[int, int]  # and back
    matrix: npt.NDArray[np.float32]
    rows: _Rows  # the filter fields of each matrix row
    kinds: frozenset[str] = frozenset()  # the kinds the user has any document of


@dataclass(frozen=True, slots=True)
class _Filter:
    """A query's filter values, converted once per search instead of once per document."""

    kinds: tuple[str, ...]
    now: str
    occurred_from: str | None
    occurred_to: str | None

    @property
    def windowed(self) -> bool:
        return self.occurred_from is not None or self.occurred_to is not None

    @classmethod
    def of(cls, query: SearchQuery) -> _Filter:
        return cls(
            tuple(k.value for k in query.kinds),
            ts(query.now),
            ts_opt(query.occurred_from),
            ts_opt(query.occurred_to),
        )


def _owner(tenant_id: str, user_id: str) -> str:
    # One FTS token per (tenant, user), so a MATCH never reads another owner's postings.
    return "o" + hashlib.sha256(f"{tenant_id}\x1f{user_id}".encode()).hexdigest()[:30]


class LocalIndex:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._local = threading.local()
        self._cache: dict[tuple[str, str], _UserDocs] = {}
        self._lock = threading.Lock()
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        conn = self._conn()
        for sql in _SCHEMA:
            conn.execute(sql)
        _upgrade(conn)

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            except sqlite3.Error as exc:
                raise StoreUnavailable("The local index cannot be opened.", path=self.path) from exc
            conn.execute("PRAGMA busy_timeout = 10000")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            # Deleted documents are overwritten with zeros, not merely unlinked (erasure).
            conn.execute(SECURE_DELETE)
            self._local.conn = conn
        return conn

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, for readers of the index's own tables (``LocalIndexVectors``)."""
        return self._conn()

    # -- writes -----------------------------------------------------------------------
    def upsert(self, docs: Sequence[IndexDocument]) -> None:
        if not docs:
            return
        conn = self._conn()
        touched: set[tuple[str, str]] = set()
        conn.execute("BEGIN IMMEDIATE")
        try:
            for d in docs:
                self._delete_one(conn, d.tenant_id, d.user_id, d.id)
                vector = None if d.vector is None else np.asarray(d.vector, dtype=np.float32).tobytes()
                cur = conn.execute(
                    "INSERT INTO idx_docs (tenant_id, user_id, id, kind, meta, vector, model_id) "
                    "VALUES (?,?,?,?,?,?,?)",
                    (
                        d.tenant_id,
                        d.user_id,
                        d.id,
                        d.kind.value,
                        json.dumps(_meta_of(d)),
                        vector,
                        d.model_id,
                    ),
                )
                conn.execute(
                    "INSERT INTO idx_fts (rowid, owner, text) VALUES (?,?,?)",
                    (cur.lastrowid, _owner(d.tenant_id, d.user_id), d.text),
                )
                touched.add((d.tenant_id, d.user_id))
            self._bump(conn, touched)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def delete(self, tenant_id: str, user_id: str, ids: Sequence[str]) -> None:
        if not ids:
            return
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            for doc_id in ids:
                self._delete_one(conn, tenant_id, user_id, doc_id)
            self._bump(conn, {(tenant_id, user_id)})
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            rows = conn.execute(
                "SELECT rowid FROM idx_docs WHERE tenant_id=? AND user_id=?", (tenant_id, user_id)
            ).fetchall()
            for (rowid,) in rows:
                conn.execute("DELETE FROM idx_fts WHERE rowid=?", (rowid,))
            conn.execute("DELETE FROM idx_docs WHERE tenant_id=? AND user_id=?", (tenant_id, user_id))
            conn.execute("DELETE FROM idx_generations WHERE tenant_id=? AND user_id=?", (tenant_id, user_id))
            conn.execute(
                "INSERT INTO idx_epoch (id, epoch) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET epoch = epoch + 1"
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return {"indexDocuments": len(rows)}

    def scrub_residue(self) -> None:
        """After an erasure: no segment or log frame may keep what was erased.

        FTS5 deletes only add tombstones; the erased words stay in the old segments until
        they are merged, so the index is merged into one segment ('optimize'; its cost
        grows with the index, and erasures are rare). Then the log is truncated.
        """
        if self.path == ":memory:":
            return
        conn = self._conn()
        conn.execute("INSERT INTO idx_fts (idx_fts) VALUES ('optimize')")
        checkpoint_truncate(conn, self.path)

    def count(self, tenant_id: str, user_id: str) -> int:
        row = (
            self._conn()
            .execute(
                "SELECT COUNT(*) FROM idx_docs WHERE tenant_id=? AND user_id=?",
                (tenant_id, user_id),
            )
            .fetchone()
        )
        return int(row[0])

    def ids(self, tenant_id: str, user_id: str) -> set[str]:
        rows = (
            self._conn()
            .execute("SELECT id FROM idx_docs WHERE tenant_id=? AND user_id=?", (tenant_id, user_id))
            .fetchall()
        )
        return {r[0] for r in rows}

    def _delete_one(self, conn: sqlite3.Connection, tenant_id: str, user_id: str, doc_id: str) -> None:
        row = conn.execute(
            "SELECT rowid FROM idx_docs WHERE tenant_id=? AND user_id=? AND id=?",
            (tenant_id, user_id, doc_id),
        ).fetchone()
        if row is not None:
            conn.execute("DELETE FROM idx_fts WHERE rowid=?", (row[0],))
            conn.execute("DELETE FROM idx_docs WHERE rowid=?", (row[0],))

    def _bump(self, conn: sqlite3.Connection, owners: set[tuple[str, str]]) -> None:
        for tenant_id, user_id in owners:
            conn.execute(
                "INSERT INTO idx_generations (tenant_id, user_id, gen) VALUES (?,?,1) "
                "ON CONFLICT (tenant_id, user_id) DO UPDATE SET gen = gen + 1",
                (tenant_id, user_id),
            )

    # -- reads --------------------------------------------------------------------------
    def search(self, query: SearchQuery) -> list[SearchHit]:
        f = _Filter.of(query)
        docs = self._docs(query.tenant_id, query.user_id, query.model_id)
        if docs.kinds.isdisjoint(f.kinds):
            # Nothing of these kinds (a user with no past messages, say): no hit can pass,
            # so neither the full-text query nor the vectors are worth computing.
            return []
        sims: npt.NDArray[np.float32] | None = None
        if query.vector is not None and docs.matrix.shape[0]:
            q = np.asarray(query.vector, dtype=np.float32)
            if q.shape[0] == docs.matrix.shape[1]:
                # einsum, not ``@``: a matrix-vector product this small gains nothing from
                # BLAS threads, and on a busy machine their hand-offs cost milliseconds.
                sims = np.einsum("ij,j->i", docs.matrix, q)
        keyword: dict[int, float] = self._keyword(query) if query.text.strip() else {}
        hits: dict[str, SearchHit] = {}
        # Each hit carries both components whenever the index knows them, so fusion never
        # mistakes "not in the other top k" for "no similarity".
        taken = 0
        for rowid, score in keyword.items():
            meta = docs.metas.get(rowid)
            if meta is None or not _passes(meta, query, f):
                continue
            sim = _sim_of(docs, sims, rowid)
            hits[meta.id] = _hit(meta, score, sim)
            taken += 1
            if taken >= query.k:
                break
        if sims is not None:
            for rowid, sim in _nearest(docs, sims, query, f):
                meta = docs.metas[rowid]
                if meta.id not in hits:
                    hits[meta.id] = _hit(meta, keyword.get(rowid, 0.0), sim)
        return list(hits.values())

    def _keyword(self, query: SearchQuery) -> dict[int, float]:
        """BM25 of the user's best-matching documents by rowid, best first."""
        tokens = query_terms(query.text)
        if not tokens:
            return {}
        match = (
            f'owner : "{_owner(query.tenant_id, query.user_id)}" AND text : ('
            + " OR ".join('"' + t.replace('"', "") + '"' for t in tokens)
            + ")"
        )
        # The owner token confines the match to one (tenant, user); rowids are then
        # resolved against that user's own documents only (see ``search``).
        # Only this query's kinds compete for the LIMIT: a user's many messages must not
        # push their few memories out of a memory search (or the other way round). With
        # kinds filtered here, twice k is enough: scope and expiry rarely reject a hit.
        kinds = [k.value for k in query.kinds]
        rows = (
            self._conn()
            .execute(
                # CROSS JOIN keeps the full-text match as the outer loop (each hit then
                # finds its document by rowid); a rowid IN (...) filter made FTS5 test
                # every document of the user one by one instead.
                "SELECT idx_fts.rowid, bm25(idx_fts, 0.0, 1.0) AS score FROM idx_fts CROSS JOIN idx_docs AS d "
                "ON d.rowid = idx_fts.rowid WHERE idx_fts MATCH ? AND d.tenant_id = ? AND d.user_id = ? "
                f"AND d.kind IN ({','.join('?' * len(kinds))}) "
                "ORDER BY score LIMIT ?",
                (match, query.tenant_id, query.user_id, *kinds, max(query.k * 2, 50)),
            )
            .fetchall()
        )
        # FTS5's bm25() is negative (lower is better); report the usual positive score.
        return {int(r[0]): -float(r[1]) for r in rows}

    def _docs(self, tenant_id: str, user_id: str, model_id: str | None) -> _UserDocs:
        """The user's documents and vectors, cached until the user's generation moves."""
        conn = self._conn()
        row = conn.execute(
            "SELECT (SELECT gen FROM idx_generations WHERE tenant_id=? AND user_id=?), "
            "(SELECT epoch FROM idx_epoch WHERE id = 1)",
            (tenant_id, user_id),
        ).fetchone()
        gen = int(row[0] or 0) + (int(row[1] or 0) << 32)
        cached = self._cache.get((tenant_id, user_id))
        if cached is not None and cached.gen == gen and (model_id is None or cached.model_id == model_id):
            return cached
        rows = conn.execute(
            "SELECT rowid, meta, vector, model_id FROM idx_docs WHERE tenant_id=? AND user_id=?",
            (tenant_id, user_id),
        ).fetchall()
        metas = {int(r[0]): _meta_from(json.loads(r[1])) for r in rows}
        model_id, chosen = _comparable_vectors(rows, model_id)
        matrix = (
            np.frombuffer(b"".join(r[2] for r in chosen), dtype=np.float32).reshape(len(chosen), -1)
            if chosen
            else np.zeros((0, 0), dtype=np.float32)
        )
        vec_rowids = [int(r[0]) for r in chosen]
        rows_of = _Rows.of([metas[r] for r in vec_rowids])
        fresh = _UserDocs(
            gen,
            model_id,
            metas,
            vec_rowids,
            {r: i for i, r in enumerate(vec_rowids)},
            matrix,
            rows_of,
            frozenset(m.kind for m in metas.values()),
        )
        with self._lock:
            if len(self._cache) > 2048:
                self._cache.clear()
            self._cache[(tenant_id, user_id)] = fresh
        return fresh


def _nearest(docs: _UserDocs, sims: npt.NDArray[np.float32], query: SearchQuery, f: _Filter) -> list[tuple[int, float]]:
    """The ``query.k`` most similar documents that pass the query's filters, best first;
    equal similarities in matrix order (a stable sort)."""
    passing = np.flatnonzero(docs.rows.passing(query, f))
    if passing.shape[0] == 0:
        return []
    scores = sims[passing]
    k = query.k
    if passing.shape[0] > k:
        # The k-th best score; every row above it is in, and of the rows equal to it the
        # first ones in matrix order fill what is left (what a full stable sort keeps).
        kth = np.partition(scores, passing.shape[0] - k)[passing.shape[0] - k]
        above = np.flatnonzero(scores > kth)
        level = np.flatnonzero(scores == kth)[: k - above.shape[0]]
        chosen = np.concatenate((above, level))
        chosen.sort()
    else:
        chosen = np.arange(passing.shape[0])
    order = chosen[np.argsort(-scores[chosen], kind="stable")]
    rowids = docs.vec_rowids
    return [(rowids[int(passing[i])], float(scores[i])) for i in order]


def _comparable_vectors(rows: list[Any], model_id: str | None) -> tuple[str | None, list[Any]]:
    """The rows whose vectors can be compared: one model's, of one dimension.

    While a re-embed runs two models share the index; without a model named, use the one
    most documents have rather than mix incomparable spaces.
    """
    with_vectors = [r for r in rows if r[2] is not None]
    if model_id is None and with_vectors:
        counts: dict[str, int] = {}
        for r in with_vectors:
            counts[r[3] or ""] = counts.get(r[3] or "", 0) + 1
        model_id = max(sorted(counts), key=lambda m: counts[m])
    chosen = [r for r in with_vectors if (r[3] or "") == (model_id or "")]
    dims = {len(r[2]) for r in chosen}
    if len(dims) > 1:
        common = max(sorted(dims), key=lambda n: sum(1 for r in chosen if len(r[2]) == n))
        chosen = [r for r in chosen if len(r[2]) == common]
    return model_id, chosen


def _sim_of(docs: _UserDocs, sims: npt.NDArray[np.float32] | None, rowid: int) -> float:
    if sims is None:
        return 0.0
    i = docs.vec_row.get(rowid)
    return 0.0 if i is None else float(sims[i])


def _hit(meta: _Meta, keyword: float, semantic: float) -> SearchHit:
    return SearchHit(
        meta.id,
        meta.doc_kind,
        keyword=keyword,
        semantic=semantic,
        importance=meta.importance,
        confidence=meta.confidence,
        updated_at=meta.updated_at,
        occurred_at=meta.occurred_at,
        speaker=meta.speaker,
    )


def _meta_of(d: IndexDocument) -> dict[str, Any]:
    return {
        "id": d.id,
        "kind": d.kind.value,
        "visibility": d.visibility,
        "agent": d.source_agent_id,
        "groups": list(d.group_ids),
        "category": d.category,
        "thread": d.thread_id,
        "expires": ts_opt(d.expires_at),
        "importance": d.importance,
        "confidence": d.confidence,
        "updated": ts_opt(d.updated_at),
        "at": ts_opt(d.occurred_at),
        "speaker": d.speaker,
    }


def _meta_from(m: dict[str, Any]) -> _Meta:
    return _Meta(
        m["id"],
        m["kind"],
        m["visibility"],
        m["agent"],
        tuple(m.get("groups") or ()),
        m.get("category"),
        m.get("thread"),
        m.get("expires"),
        m.get("importance"),
        m.get("confidence"),
        m.get("updated"),
        m.get("at"),
        DocKind(m["kind"]),
        parse_ts_opt(m.get("updated")),
        parse_ts_opt(m.get("at")),
        m.get("speaker"),
    )


def _passes(meta: _Meta, query: SearchQuery, f: _Filter) -> bool:
    """Whether one document passes the query's filters (``_Rows.passing`` does the same
    for every matrix row at once)."""
    if meta.kind not in f.kinds:
        return False
    if meta.expires is not None and meta.expires <= f.now:
        return False
    if query.categories is not None and meta.category not in query.categories:
        return False
    if query.thread_ids is not None and meta.thread not in query.thread_ids:
        return False
    if meta.thread is not None and meta.thread in query.exclude_thread_ids:
        return False
    if f.windowed:
        if meta.at is None:
            return False
        if f.occurred_from is not None and meta.at < f.occurred_from:
            return False
        if f.occurred_to is not None and meta.at >= f.occurred_to:
            return False
    return query.scope is None or _visible(meta, query.scope)


def _visible(meta: _Meta, scope: VisibilityScope) -> bool:
    if scope.everything or meta.visibility == Visibility.GLOBAL.value:
        return True
    if meta.agent == scope.agent_id:
        return True
    return meta.visibility == Visibility.GROUP.value and any(g in scope.group_ids for g in meta.groups)
