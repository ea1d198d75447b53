"""Dream's summariser without a model: the partition's own facts, chosen, deduplicated
and ordered (``domain/summaries.py``). Deterministic, offline and free, so it is the
default of the embedded store: ``engram dream`` summarises with nothing to set up."""

from __future__ import annotations

from engram.domain.summaries import extract
from engram.ports import SummaryRequest, SummaryResult


class ExtractiveSummarizer:
    def max_cost_micros(self, request: SummaryRequest) -> int:
        return 0

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        made = extract(request.facts, request.category, request.max_chars)
        return SummaryResult(made.text, 0, made.covered)
