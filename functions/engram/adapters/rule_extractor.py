"""The default ``FactExtractor``: Mona's patterns, no model, no network (see domain.extraction)."""

from __future__ import annotations

from datetime import datetime

from engram.domain.extraction import Extraction
from engram.domain.extraction_rules import extract_facts


class RuleExtractor:
    @property
    def name(self) -> str:
        return "rules-v1"

    def extract(self, text: str, timestamp: datetime) -> Extraction:
        return extract_facts(text, timestamp)

    def max_cost_usd(self, text: str) -> float:
        return 0.0
