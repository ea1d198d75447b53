"""One retrieval path: every search and recall finds its candidates and ranks them here.

Retrieval is three steps, the same for memories, archival records, messages and
summaries:
1. ``Retriever.hits``: embed the text (unless the caller already did, or asked for words
   only), query the index for each kind asked, and, when the text names a span of time,
   once more for what was said within it; the hits are merged by id.
2. Confirm against the source of truth: the index only proposes. The caller reads the
   hits' items from its repository and keeps those the reader may see (each feature
   knows its own rules), or, for entries whose index copy carries their ranking
   signals, ranks first and reads only the ones about to be shown (``confirm_top``).
3. Rank them all with the one ranking (``domain/ranking.py``) and explain each.

What the index holds is written the same way: ``IndexWriter.write`` embeds every
document's text in one call to the one embedder and stamps its model, so a vector and
the query that meets it always come from the same model.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Generic, TypeVar

from engram.domain.conversation import Message, parse_message_doc_id, speaker_of
from engram.domain.dream import cosine
from engram.domain.models import MemoryEntry, Status
from engram.domain.policies import VisibilityScope
from engram.domain.ranking import HybridWeights, RankMemo, ScoreParts, Signals, explain, matched_by, rank, said_around
from engram.domain.temporal import TimeWindow
from engram.ports import (
    DocKind,
    Embedder,
    EntryQuery,
    IndexDocument,
    MemoryRepository,
    SearchHit,
    SearchIndex,
    SearchQuery,
)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Ask:
    """What to look for, for whom, and how many candidates to take."""

    tenant_id: str
    user_id: str
    now: datetime
    text: str
    scope: VisibilityScope
    kinds: tuple[DocKind, ...]
    candidates: int
    # Already embedded by the caller (recall embeds once for several uses); else embedded here.
    vector: Sequence[float] | None = None
    categories: tuple[str, ...] | None = None
    exclude_thread_ids: tuple[str, ...] = ()
    # The span of time the text names: its hits are added to the rest.
    window: TimeWindow | None = None
    # Words only (no vector), or meaning only (no words).
    keyword: bool = True
    semantic: bool = True
    # Each kind its own candidate list, so hundreds of messages never crowd the few
    # entries out of the candidates (or the other way round).
    per_kind: bool = False
    # The keyword query for past messages when it is not ``text``: the question without
    # the names of the people in the conversation, when the speaker part counts who said
    # a message (recall, message search; ``RecallService.message_keywords``).
    message_text: str | None = None

    def keyword_groups(self) -> list[tuple[tuple[DocKind, ...], str]]:
        """The kinds searched with one keyword query, and that query (past messages
        apart when they have their own)."""
        text = self.text if self.keyword else ""
        if self.message_text is None or not self.keyword or DocKind.MESSAGE not in self.kinds:
            return [(self.kinds, text)]
        others = tuple(k for k in self.kinds if k is not DocKind.MESSAGE)
        return ([(others, text)] if others else []) + [((DocKind.MESSAGE,), self.message_text)]


@dataclass(frozen=True, slots=True)
class Found(Generic[T]):
    """A confirmed, ranked candidate: the item, its index hit and its score, explained."""

    id: str
    item: T
    hit: SearchHit
    parts: ScoreParts
    matched_by: tuple[str, ...]
    why: str

    @property
    def score(self) -> float:
        return self.parts.total


def candidates_for(limit: int) -> int:
    """How many candidates a search of ``limit`` results takes from the index."""
    return max(limit * 4, 20)


class Retriever:
    def __init__(self, index: SearchIndex, embedder: Embedder) -> None:
        self.index = index
        self.embedder = embedder

    def hits(self, ask: Ask) -> dict[str, SearchHit]:
        """The index's candidates for ``ask`` by id (the first hit of an id wins)."""
        vector = ask.vector
        if vector is None and ask.semantic:
            vector = self.embedder.embed([ask.text])[0]
        base = SearchQuery(
            tenant_id=ask.tenant_id,
            user_id=ask.user_id,
            now=ask.now,
            text=ask.text if ask.keyword else "",
            vector=vector if ask.semantic else None,
            scope=ask.scope,
            kinds=ask.kinds,
            categories=ask.categories,
            exclude_thread_ids=ask.exclude_thread_ids,
            k=ask.candidates,
            model_id=self.embedder.model_id,
        )
        groups = ask.keyword_groups()
        if ask.per_kind:
            queries = [replace(base, kinds=(kind,), text=t) for kinds, t in groups for kind in kinds]
        else:
            queries = [replace(base, kinds=kinds, text=t) for kinds, t in groups]
        if ask.window is not None:
            # What was said in the span asked about, however it is worded.
            queries += [
                replace(base, kinds=kinds, text=t, occurred_from=ask.window.start, occurred_to=ask.window.end)
                for kinds, t in groups
            ]
        found: dict[str, SearchHit] = {}
        for query in queries:
            for h in self.index.search(query):
                found.setdefault(h.id, h)
        return found


def rank_found(
    hits: Mapping[str, SearchHit],
    items: Mapping[str, T],
    signals: Callable[[T, SearchHit], Signals],
    weights: HybridWeights,
    now: datetime,
    floor: float,
    *,
    to: str = "the query",
    neighbours: Mapping[str, Sequence[str]] | None = None,
) -> list[Found[T]]:
    """Confirmed ``items`` (by hit id) ranked at or above ``floor``, best first, explained;
    ``neighbours`` lift past messages said around each other, as in recall (``rank``)."""
    scored = rank([(i, signals(item, hits[i])) for i, item in items.items()], weights, now, None, neighbours, floor)
    return [_found(i, items[i], hits[i], parts, to) for i, parts in scored if parts.total >= floor]


def confirm_top(
    candidates: Sequence[tuple[str, Signals]],
    known: dict[str, T],
    read: Callable[[list[str]], Mapping[str, T]],
    stored: Callable[[str, T], Signals],
    weights: HybridWeights,
    now: datetime,
    floor: float,
    limit: int,
    *,
    dropped: Iterable[str] = (),
    neighbours: Mapping[str, Sequence[str]] | None = None,
) -> tuple[list[tuple[str, ScoreParts]], int]:
    """Rank on what the index knows of each candidate and read from the store only the
    best ``limit`` (and the next ones for any that drop out): usually one read of
    ``limit`` items instead of one of every candidate (docs/dynamodb.md).

    The store is the truth: ``read`` answers, by id, only the items the reader may still
    see, so an index lagging behind a supersede or delete never brings an old value back;
    a read item ranks on its ``stored`` signals. ``known`` holds the items read already
    (filled in here); ``dropped`` are left out; ``neighbours`` lift past messages said
    around each other (``ranking.rank``). Answers the candidates at or above ``floor``,
    best first, and how many were ranked in the last round.
    """
    gone = set(dropped)
    signals = dict(candidates)
    for cid, item in known.items():
        if cid in signals:
            signals[cid] = _same_if_equal(signals[cid], stored(cid, item))
    # The same Signals object from round to round, so a round scores only what changed.
    memo = RankMemo()
    while True:
        # Only a neighbour that passes ``floor`` lifts (``ranking.lift_by_context``).
        ranked = rank(
            [(cid, signals[cid]) for cid, _ in candidates if cid not in gone], weights, now, memo, neighbours, floor
        )
        passing = [(cid, parts) for cid, parts in ranked if parts.total >= floor]
        missing = [cid for cid, _ in passing[:limit] if cid not in known]
        if neighbours:
            # A lift is only as true as the neighbour it comes from: read the unread ones
            # that lift a shown item too, so one the store no longer has (the index lags
            # a delete) lifts nothing (``ranking.lift_by_context``).
            missing += _lifting(passing[:limit], neighbours, known, gone, signals, missing)
        if not missing:
            return passing, len(ranked)
        for cid, item in read(missing).items():
            known[cid] = item
            signals[cid] = _same_if_equal(signals[cid], stored(cid, item))
        # Every round reads or drops each id it asks for, so this ends.
        gone.update(cid for cid in missing if cid not in known)


def _same_if_equal(indexed: Signals, read: Signals) -> Signals:
    """What the store says of an item, as the object the index's copy made when they are
    equal (they usually are), so the ranking's memo does not score it again."""
    return indexed if read == indexed else read


def _lifting(
    shown: Sequence[tuple[str, ScoreParts]],
    neighbours: Mapping[str, Sequence[str]],
    known: Mapping[str, object],
    gone: set[str],
    signals: Mapping[str, Signals],
    asked: list[str],
) -> list[str]:
    """The unread candidates said around a shown item that the lift may have come from."""
    out: list[str] = []
    for cid, parts in shown:
        if parts.context > 0:
            for n in neighbours.get(cid, ()):
                if n in signals and n not in known and n not in gone and n not in asked and n not in out:
                    out.append(n)
    return out


def messages_said_around(
    hits: Mapping[str, SearchHit], messages: Mapping[str, Message] | None = None
) -> dict[str, list[str]]:
    """The candidate past messages said around each other by one speaker in one thread
    (``ranking.said_around``, the context lift's neighbours): when and by whom from the
    message where it was read (``messages``, by document id), else from what the index
    knows of it (a document that does not carry it, written before OpenSearch kept the
    speaker, needs the read)."""
    said = []
    for hid, h in hits.items():
        key = parse_message_doc_id(hid) if h.kind is DocKind.MESSAGE else None
        if key is None:
            continue
        m = None if messages is None else messages.get(hid)
        if m is not None:
            said.append((hid, m.thread_id, speaker_of(m), m.timestamp))
        elif h.occurred_at is not None and h.speaker is not None:
            said.append((hid, key[1], h.speaker, h.occurred_at))
    return said_around(said)


def explained(cid: str, item: T, hit: SearchHit, parts: ScoreParts, to: str = "the query") -> Found[T]:
    return _found(cid, item, hit, parts, to)


def _found(cid: str, item: T, hit: SearchHit, parts: ScoreParts, to: str) -> Found[T]:
    matched = matched_by(hit.keyword, parts)
    return Found(cid, item, hit, parts, matched, explain(parts, matched, to=to))


class IndexWriter:
    """The one writer of search documents (entries, archival records, messages, summaries)."""

    def __init__(self, index: SearchIndex, embedder: Embedder) -> None:
        self.index = index
        self.embedder = embedder

    def write(self, docs: Sequence[IndexDocument], texts: Sequence[str] | None = None) -> None:
        """Embed ``texts`` (by default each document's own text; a message embeds its
        content alone) in one call and upsert the documents with their vectors."""
        if not docs:
            return
        vectors = self.embedder.embed(list(texts) if texts is not None else [d.text for d in docs])
        model = self.embedder.model_id
        self.index.upsert([replace(d, vector=v, model_id=model) for d, v in zip(docs, vectors, strict=True)])


# -- words without the index ---------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def _words(text: str) -> list[str]:
    return [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in _WORD.findall(text.lower())]


def keyword_hits(entries: Sequence[MemoryEntry], text: str, k: int) -> list[SearchHit]:
    """BM25 over ``entries``' searchable text, in process: the keyword part of the hybrid,
    for when the search index cannot answer. Entries that share no word are left out."""
    terms = set(_words(text))
    bags = {e.id: Counter(_words(e.text())) for e in entries}
    if not terms or not bags:
        return []
    average = sum(sum(b.values()) for b in bags.values()) / len(bags) or 1.0
    df = {t: sum(1 for b in bags.values() if t in b) for t in terms}
    scored: list[SearchHit] = []
    for entry_id, bag in bags.items():
        length = sum(bag.values())
        score = 0.0
        for term in terms:
            if bag[term]:
                idf = math.log(1 + (len(bags) - df[term] + 0.5) / (df[term] + 0.5))
                score += idf * bag[term] * 2.2 / (bag[term] + 1.2 * (0.25 + 0.75 * length / average))
        if score > 0:
            scored.append(SearchHit(entry_id, DocKind.MEMORY, keyword=score, semantic=0.0))
    scored.sort(key=lambda h: -h.keyword)
    return scored[:k]


# -- as of a past time: the values that held then (issue #17, item 8) ----------------------

# How many of a user's superseded entries an as-of read looks through (newest first).
PAST_MAX_ENTRIES = 2000


def held_at(e: MemoryEntry, moment: datetime) -> bool:
    """A superseded value that was the fact at ``moment``: valid then, and not expired by then."""
    return e.status is Status.SUPERSEDED and e.valid_at(moment) and not e.is_expired(moment)


def past_values(
    store: MemoryRepository,
    tenant_id: str,
    user_id: str,
    now: datetime,
    as_of: datetime,
    scope: VisibilityScope,
    keep: Callable[[MemoryEntry], bool],
) -> list[MemoryEntry]:
    """The user's superseded entries that held at ``as_of`` and that ``keep`` lets the
    reader see. The search index holds live entries only (a value is removed from it when
    its successor is written), so an as-of search or recall reads these from the store."""
    out: list[MemoryEntry] = []
    cursor: str | None = None
    seen = 0
    while seen < PAST_MAX_ENTRIES:
        query = EntryQuery(
            now=now, scope=scope, statuses=(Status.SUPERSEDED,), include_expired=True, limit=500, cursor=cursor
        )
        page = store.list_entries(tenant_id, user_id, query)
        seen += len(page.items)
        out.extend(e for e in page.items if held_at(e, as_of) and keep(e))
        cursor = page.next_cursor
        if cursor is None:
            break
    return not_forgotten(store, tenant_id, user_id, now, out)


def not_forgotten(
    store: MemoryRepository, tenant_id: str, user_id: str, now: datetime, past: list[MemoryEntry]
) -> list[MemoryEntry]:
    """``past`` without the values whose fact was forgotten since: a superseded value
    whose identity was deleted at a later version (forget by key, id or category) is
    not shown as a fact of its time. The deletion is read from the store: the user's
    deleted entries (one query, usually empty; only when there are past values)."""
    if not past:
        return past
    deleted: dict[str, int] = {}
    cursor: str | None = None
    seen = 0
    while seen < PAST_MAX_ENTRIES:
        query = EntryQuery(now=now, statuses=(Status.DELETED,), include_expired=True, limit=500, cursor=cursor)
        page = store.list_entries(tenant_id, user_id, query)
        seen += len(page.items)
        for d in page.items:
            deleted[d.identity_id] = max(d.version, deleted.get(d.identity_id, 0))
        cursor = page.next_cursor
        if cursor is None:
            break
    return [e for e in past if deleted.get(e.identity_id, 0) <= e.version]


def past_hits(
    entries: Sequence[MemoryEntry], text: str, vector: Sequence[float] | None, embedder: Embedder
) -> dict[str, SearchHit]:
    """Hits for past values, made in process as the index makes them for live entries:
    cosine of the query's vector and the entry's embedded text (one embedding call for
    all; few entries, at most one per fact that changed since), and BM25 over them. The
    BM25 is over this small set, so its scores sit at or below the index's: a past value
    never outranks an equally good current one on words alone."""
    if not entries:
        return {}
    words = {h.id: h.keyword for h in keyword_hits(entries, text, len(entries))}
    meaning: dict[str, float] = {}
    if vector is not None:
        vectors = embedder.embed([e.text() for e in entries])
        meaning = {e.id: cosine(vector, v) for e, v in zip(entries, vectors, strict=True)}
    return {
        e.id: SearchHit(e.id, DocKind.MEMORY, keyword=words.get(e.id, 0.0), semantic=meaning.get(e.id, 0.0))
        for e in entries
    }
