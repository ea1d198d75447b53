"""A bounded memory of query embeddings: the same message is embedded once per process.

Agents often ask recall the same thing again (a retried turn, the same opening question
of every session, a dashboard polling one query), and with the semantic embedder the
query's embedding is most of a recall's CPU. The embedder is deterministic (the same
text gives the same bytes), so a remembered vector is exactly what embedding again would
give: results do not change. What it does not do: a workload whose messages never repeat
gains nothing from it (every call misses, pays one dictionary lookup and insert, and the
oldest vector is forgotten); its memory is bounded at ``size`` vectors per process.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from engram.ports import Embedder

DEFAULT_SIZE = 512  # about 6 MB of 384-dimension vectors per process


class QueryVectors:
    def __init__(self, embedder: Embedder, size: int = DEFAULT_SIZE) -> None:
        self.embedder = embedder
        self.size = size
        self._vectors: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def vector(self, text: str) -> list[float]:
        with self._lock:
            found = self._vectors.get(text)
            if found is not None:
                self._vectors.move_to_end(text)
                self.hits += 1
                return found
            self.misses += 1
        # Embedded outside the lock: two threads asking for one new text both embed it
        # (the same bytes), rather than one waiting on the other's model call.
        vector = self.embedder.embed([text])[0]
        if self.size > 0:
            with self._lock:
                self._vectors[text] = vector
                self._vectors.move_to_end(text)
                while len(self._vectors) > self.size:
                    self._vectors.popitem(last=False)
        return vector
