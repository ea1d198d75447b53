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
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from engram.adapters.local_index_filters import DocMeta, FilterRows, QueryFilter, hit_of, meta_from, meta_json, passes
from engram.adapters.sqlite.scrub import SECURE_DELETE, checkpoint_truncate
from engram.domain.errors import StoreUnavailable
from engram.domain.ranking import query_terms
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
    # Every start asks which users hold vectors of another model than the embedder's
    # (``LocalIndexVectors.owners_embedded_otherwise``): answered from this index, not a scan.
    "CREATE INDEX IF NOT EXISTS idx_docs_model ON idx_docs (model_id)",
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
class _UserDocs:
    gen: int
    model_id: str | None
    metas: dict[int, DocMeta]  # every document of the user, by rowid
    vec_rowids: list[int]  # the rowid of each matrix row
    vec_row: dict[int, int]  # and back
    matrix: npt.NDArray[np.float32]
    rows: FilterRows  # the filter fields of each matrix row
    kinds: frozenset[str] = frozenset()  # the kinds the user has any document of
    # Who said the user's past messages, by the agent whose thread they are in.
    speakers: dict[str, frozenset[str]] = field(default_factory=dict)
    # Each document's stored meta as read, by rowid: a reload parses only what changed.
    raw: dict[int, str] = field(default_factory=dict)
    # The last query vector's similarities and the last full-text scan: one recall asks
    # the same question once per kind and once more for a time span, and this user's
    # documents (this generation) give the same answer each time.
    sims: tuple[bytes, npt.NDArray[np.float32]] | None = None
    scan: _Scan | None = None


@dataclass(frozen=True, slots=True)
class _Scan:
    """A full-text match's rows, best first (equal scores in rowid order), as far as they
    were fetched; ``complete`` when every match was."""

    match: str
    # BM25 counts every owner's documents (how many hold a word, the average length):
    # a scan holds until anything in the index changes, by this connection or another.
    state: tuple[object, int, int]
    rows: list[tuple[int, float]]
    complete: bool


# The most rows of one scan kept for the next query (a common word can match most of a
# large user's documents; the next query then scans again).
SCAN_KEEP = 4096


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
            # Names this connection in what is cached per state of the data (``_Scan``):
            # PRAGMA data_version counts per connection.
            self._local.token = object()
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
                        json.dumps(meta_json(d)),
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
        f = QueryFilter.of(query)
        docs = self._docs(query.tenant_id, query.user_id, query.model_id)
        if docs.kinds.isdisjoint(f.kinds):
            # Nothing of these kinds (a user with no past messages, say): no hit can pass,
            # so neither the full-text query nor the vectors are worth computing.
            return []
        sims: npt.NDArray[np.float32] | None = None
        if query.vector is not None and docs.matrix.shape[0]:
            q = np.asarray(query.vector, dtype=np.float32)
            if q.shape[0] == docs.matrix.shape[1]:
                key = q.tobytes()
                last = docs.sims
                if last is not None and last[0] == key:
                    sims = last[1]
                else:
                    # einsum, not ``@``: a matrix-vector product this small gains nothing
                    # from BLAS threads, and on a busy machine their hand-offs cost
                    # milliseconds.
                    sims = np.einsum("ij,j->i", docs.matrix, q)
                    docs.sims = (key, sims)
        keyword: dict[int, float] = self._keyword(query, docs, f) if query.text.strip() else {}
        hits: dict[str, SearchHit] = {}
        # Each hit carries both components whenever the index knows them, so fusion never
        # mistakes "not in the other top k" for "no similarity".
        taken = 0
        for rowid, score in keyword.items():
            meta = docs.metas.get(rowid)
            if meta is None or not passes(meta, query, f):
                continue
            sim = _sim_of(docs, sims, rowid)
            hits[meta.id] = hit_of(meta, score, sim)
            taken += 1
            if taken >= query.k:
                break
        if sims is not None:
            for rowid, sim in _nearest(docs, sims, query, f):
                meta = docs.metas[rowid]
                if meta.id not in hits:
                    hits[meta.id] = hit_of(meta, keyword.get(rowid, 0.0), sim)
        return list(hits.values())

    def _keyword(self, query: SearchQuery, docs: _UserDocs, f: QueryFilter) -> dict[int, float]:
        """BM25 of the user's best-matching documents of the query's kinds by rowid, best
        first (equal scores in rowid order)."""
        tokens = query_terms(query.text)
        if not tokens:
            return {}
        match = (
            f'owner : "{_owner(query.tenant_id, query.user_id)}" AND text : ('
            + " OR ".join('"' + t.replace('"', "") + '"' for t in tokens)
            + ")"
        )
        # The owner token confines the match to one (tenant, user); rowids are then
        # resolved against that user's own documents only (``docs``, held in memory).
        # Only this query's kinds compete for the limit: a user's many messages must not
        # push their few memories out of a memory search (or the other way round). With
        # kinds filtered here, twice k is enough: scope and expiry rarely reject a hit.
        # The kinds are looked up in memory, not by joining idx_docs: the join read each
        # match's row (its vector too) and was half the query's cost at 10,000 messages.
        # Rows are fetched one at a time, best first, until the limit is reached; the
        # next query of the same words reuses them (``_UserDocs.scan``).
        limit = max(query.k * 2, 50)
        conn = self._conn()
        state = (self._local.token, int(conn.execute("PRAGMA data_version").fetchone()[0]), conn.total_changes)
        scan = docs.scan
        if scan is not None and scan.match == match and scan.state == state:
            found = _of_kinds(scan.rows, docs, f, limit)
            if len(found) >= limit or scan.complete:
                return found
        found = {}
        rows: list[tuple[int, float]] = []
        complete = True
        cursor = conn.execute(
            "SELECT rowid, bm25(idx_fts, 0.0, 1.0) AS score FROM idx_fts WHERE idx_fts MATCH ? ORDER BY score, rowid",
            (match,),
        )
        try:
            for rowid, score in cursor:
                # FTS5's bm25() is negative (lower is better); report the usual positive score.
                row = (int(rowid), -float(score))
                rows.append(row)
                meta = docs.metas.get(row[0])
                if meta is not None and meta.kind in f.kinds:
                    found[row[0]] = row[1]
                    if len(found) >= limit:
                        complete = False
                        break
        finally:
            cursor.close()  # ends the statement, and the read it holds open, now
        if len(rows) <= SCAN_KEEP:
            docs.scan = _Scan(match, state, rows, complete)
        return found

    def speakers(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> frozenset[str]:
        by_agent = self._docs(tenant_id, user_id, None).speakers
        if agent_id is not None:
            return by_agent.get(agent_id, frozenset())
        return frozenset().union(*by_agent.values())

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
        fresh = _user_docs(gen, rows, model_id, cached)
        with self._lock:
            if len(self._cache) > 2048:
                self._cache.clear()
            self._cache[(tenant_id, user_id)] = fresh
        return fresh


def _user_docs(gen: int, rows: list[Any], model_id: str | None, cached: _UserDocs | None) -> _UserDocs:
    """One user's documents as searched: every document's metadata, and one matrix of the
    vectors that can be compared with each other."""
    metas, raw = _metas(rows, cached)
    model_id, chosen = _comparable_vectors(rows, model_id)
    matrix = (
        np.frombuffer(b"".join(r[2] for r in chosen), dtype=np.float32).reshape(len(chosen), -1)
        if chosen
        else np.zeros((0, 0), dtype=np.float32)
    )
    vec_rowids = [int(r[0]) for r in chosen]
    rows_of = FilterRows.of([metas[r] for r in vec_rowids])
    return _UserDocs(
        gen,
        model_id,
        metas,
        vec_rowids,
        {r: i for i, r in enumerate(vec_rowids)},
        matrix,
        rows_of,
        frozenset(m.kind for m in metas.values()),
        _speakers(metas),
        raw,
    )


def _speakers(metas: dict[int, DocMeta]) -> dict[str, frozenset[str]]:
    said: dict[str, set[str]] = {}
    for m in metas.values():
        if m.speaker and m.doc_kind is DocKind.MESSAGE:
            said.setdefault(m.agent, set()).add(m.speaker)
    return {agent: frozenset(names) for agent, names in said.items()}


def _metas(rows: list[Any], cached: _UserDocs | None) -> tuple[dict[int, DocMeta], dict[int, str]]:
    """Each document's metadata by rowid, and its stored text.

    A write changes one or two of a user's documents and moves the generation, so the
    next search reloads them all: what was parsed before is kept where the stored meta
    is the same text (parsing was most of a reload; issue #17's dedup searches after
    every write).
    """
    before, before_raw = (cached.metas, cached.raw) if cached is not None else ({}, {})
    metas: dict[int, DocMeta] = {}
    raw: dict[int, str] = {}
    for r in rows:
        rowid, text = int(r[0]), r[1]
        known = before.get(rowid) if before_raw.get(rowid) == text else None
        metas[rowid] = known if known is not None else meta_from(json.loads(text))
        raw[rowid] = text
    return metas, raw


def _of_kinds(rows: list[tuple[int, float]], docs: _UserDocs, f: QueryFilter, limit: int) -> dict[int, float]:
    """The first ``limit`` of ``rows`` that are the user's documents of the query's kinds."""
    found: dict[int, float] = {}
    for rowid, score in rows:
        meta = docs.metas.get(rowid)
        if meta is not None and meta.kind in f.kinds:
            found[rowid] = score
            if len(found) >= limit:
                break
    return found


def _nearest(
    docs: _UserDocs, sims: npt.NDArray[np.float32], query: SearchQuery, f: QueryFilter
) -> list[tuple[int, float]]:
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
        model_id = _most_common(map(_model_of, with_vectors))
    wanted = model_id or ""
    chosen = [r for r in with_vectors if _model_of(r) == wanted]
    if len({len(r[2]) for r in chosen}) > 1:
        common = _most_common(len(r[2]) for r in chosen)
        chosen = [r for r in chosen if len(r[2]) == common]
    return model_id, chosen


def _model_of(row: Any) -> str:
    return str(row[3] or "")


_T = TypeVar("_T", str, int)


def _most_common(values: Iterable[_T]) -> _T:
    """The most frequent value; the smallest of those tied (a stable choice)."""
    counts = Counter(values)
    return max(sorted(counts), key=lambda v: counts[v])


def _sim_of(docs: _UserDocs, sims: npt.NDArray[np.float32] | None, rowid: int) -> float:
    if sims is None:
        return 0.0
    i = docs.vec_row.get(rowid)
    return 0.0 if i is None else float(sims[i])
