"""What the in-process index keeps of each document beside its text and vector, and which
documents pass a query's filters (kind, expiry, category, thread, time window and
visibility): one document at a time (``passes``) or every row of a user's vector
matrix at once (``FilterRows.passing``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.domain.models import Visibility
from engram.domain.policies import VisibilityScope
from engram.domain.serialization import parse_ts_opt, ts, ts_opt
from engram.ports import DocKind, IndexDocument, SearchHit, SearchQuery


@dataclass(slots=True)
class DocMeta:
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


def _or_none(value: str | None) -> str:
    return _NONE if value is None else value


@dataclass(slots=True)
class FilterRows:
    """What ``passes`` reads, one array per field, one element per matrix row: the
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
    def of(cls, metas: Sequence[DocMeta]) -> FilterRows:
        def text(values: list[str]) -> npt.NDArray[np.str_]:
            return np.array(values, dtype=np.str_) if values else np.zeros(0, dtype=np.str_)

        return cls(
            kind=text([m.kind for m in metas]),
            expires=text([m.expires or "" for m in metas]),
            category=text([_or_none(m.category) for m in metas]),
            thread=text([_or_none(m.thread) for m in metas]),
            at=text([m.at or "" for m in metas]),
            visibility=text([m.visibility for m in metas]),
            agent=text([m.agent for m in metas]),
            groups={i: m.groups for i, m in enumerate(metas) if m.visibility == Visibility.GROUP.value},
        )

    def passing(self, query: SearchQuery, f: QueryFilter) -> npt.NDArray[np.bool_]:
        """``passes`` for every row at once."""
        ok = np.isin(self.kind, f.kinds)
        ok &= (self.expires == "") | (self.expires > f.now)
        if query.categories is not None:
            ok &= np.isin(self.category, list(query.categories))
        if query.thread_ids is not None:
            ok &= np.isin(self.thread, list(query.thread_ids))
        if query.exclude_thread_ids:
            ok &= ~np.isin(self.thread, list(query.exclude_thread_ids))
        if f.windowed:
            ok &= self._in_window(f)
        if query.scope is not None and not query.scope.everything:
            ok &= self._visible(query.scope)
        return ok

    def _in_window(self, f: QueryFilter) -> npt.NDArray[np.bool_]:
        inside: npt.NDArray[np.bool_] = self.at != ""
        if f.occurred_from is not None:
            inside &= self.at >= f.occurred_from
        if f.occurred_to is not None:
            inside &= self.at < f.occurred_to
        return inside

    def _visible(self, scope: VisibilityScope) -> npt.NDArray[np.bool_]:
        seen: npt.NDArray[np.bool_] = (self.visibility == Visibility.GLOBAL.value) | (self.agent == scope.agent_id)
        for i, groups in self.groups.items():
            if any(g in scope.group_ids for g in groups):
                seen[i] = True
        return seen


@dataclass(frozen=True, slots=True)
class QueryFilter:
    """A query's filter values, converted once per search instead of once per document."""

    kinds: tuple[str, ...]
    now: str
    occurred_from: str | None
    occurred_to: str | None

    @property
    def windowed(self) -> bool:
        return self.occurred_from is not None or self.occurred_to is not None

    @classmethod
    def of(cls, query: SearchQuery) -> QueryFilter:
        return cls(
            tuple(k.value for k in query.kinds),
            ts(query.now),
            ts_opt(query.occurred_from),
            ts_opt(query.occurred_to),
        )


def hit_of(meta: DocMeta, keyword: float, semantic: float) -> SearchHit:
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


def meta_json(d: IndexDocument) -> dict[str, Any]:
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


def meta_from(m: dict[str, Any]) -> DocMeta:
    return DocMeta(
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


def passes(meta: DocMeta, query: SearchQuery, f: QueryFilter) -> bool:
    """Whether one document passes the query's filters (``FilterRows.passing`` does the same
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
    if f.windowed and not _in_window(meta.at, f):
        return False
    return query.scope is None or _visible(meta, query.scope)


def _in_window(at: str | None, f: QueryFilter) -> bool:
    """Whether a document that occurred ``at`` (None: unknown) falls in the query's span."""
    if at is None:
        return False
    if f.occurred_from is not None and at < f.occurred_from:
        return False
    return f.occurred_to is None or at < f.occurred_to


def _visible(meta: DocMeta, scope: VisibilityScope) -> bool:
    if scope.everything or meta.visibility == Visibility.GLOBAL.value:
        return True
    if meta.agent == scope.agent_id:
        return True
    return meta.visibility == Visibility.GROUP.value and any(g in scope.group_ids for g in meta.groups)
