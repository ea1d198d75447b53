"""The default ``FactExtractor``: Mona's patterns, no model, no network (see domain.extraction)."""

from __future__ import annotations

from datetime import datetime

from engram.domain.extraction import Extraction, extract_facts


class RuleExtractor:
    @property
    def name(self) -> str:
        return "rules-v1"

    def extract(self, text: str, timestamp: datetime) -> Extraction:
        return extract_facts(text, timestamp)
