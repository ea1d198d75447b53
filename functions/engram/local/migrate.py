"""Bring a DynamoDB table made by an older Engram to the current key design.

The migration itself is the adapter's (``engram.adapters.dynamodb.migrate``, which says
what each version changes); this entry point composes it with the container when moved
threads are re-indexed too (``--index``), since an adapter never builds the services.

Run: ``python -m engram.local.migrate --table <name> [--index]`` (the region and an
emulator endpoint come from the usual ``ENGRAM_*`` / AWS settings).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engram.adapters.dynamodb.base import DynamoBase
from engram.adapters.dynamodb.migrate import Reindex, migrate_entries, migrate_threads
from engram.domain.conversation import Message, ThreadSummary

if TYPE_CHECKING:
    from engram.container import Engram


def main(argv: list[str] | None = None) -> int:
    from engram.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", help="the table (default: the configured one)")
    parser.add_argument(
        "--index",
        action="store_true",
        help="also re-index moved threads' messages and summaries in the configured search index",
    )
    args = parser.parse_args(argv)
    settings = Settings()
    table = args.table or settings.table_name
    store = DynamoBase(DynamoBase.client_from_settings(settings), table)
    print(migrate_entries(store))
    reindex = None
    if args.index:
        from engram.container import build

        reindex = reindexer(build(settings.model_copy(update={"table_name": table})))
    print(migrate_threads(store, reindex))
    return 0


def reindexer(engram: Engram) -> Reindex:
    """Index moved threads the way the extraction worker and the summariser do."""
    feature = engram.conversation
    if feature is None:
        raise SystemExit("conversations are not enabled in this configuration")

    def reindex(old_ids: Sequence[str], messages: Sequence[Message], summary: ThreadSummary | None) -> None:
        for m in messages:
            feature.extraction.index_message(m)
        if summary is not None:
            feature.conversations.index_summary(summary)
        if messages or summary is not None:
            first = messages[0] if messages else summary
            assert first is not None
            engram.index.delete(first.tenant_id, first.user_id, list(old_ids))

    return reindex


if __name__ == "__main__":
    raise SystemExit(main())
