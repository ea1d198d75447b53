"""``engram reindex``: drive the deployed stack's re-index function from a terminal.

    engram reindex --function <name> [--segments 8]    # backfill the index from the table
    engram reindex --function <name> --replay-failures # replay the indexer's failed batches

It invokes the ``reindex`` Lambda (the stack's ``ReindexFunctionName`` output) with the
caller's AWS credentials; the work then runs in the cloud, fanned out through its queue.
The embedded store re-indexes with ``engram reembed`` instead.
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def add_reindex_command(sub: Any) -> None:
    r = sub.add_parser(
        "reindex", help="Rebuild the cloud search index from DynamoDB, or replay the indexer's failures."
    )
    r.add_argument(
        "--function", required=True, help="The deployed reindex function (stack output ReindexFunctionName)."
    )
    r.add_argument("--segments", type=int, default=4, help="Parallel parts of the table scan (default 4).")
    r.add_argument("--replay-failures", action="store_true", help="Replay the stream indexer's failure queue instead.")
    r.add_argument("--region", help="AWS region of the stack (default: your AWS configuration's).")
    r.set_defaults(func=cmd_reindex)


def cmd_reindex(args: argparse.Namespace, client: Any = None) -> int:
    if client is None:
        import boto3

        client = boto3.client("lambda", region_name=args.region)
    event = {"action": "replay"} if args.replay_failures else {"action": "start", "segments": args.segments}
    answer = client.invoke(FunctionName=args.function, Payload=json.dumps(event).encode())
    payload = json.loads(answer["Payload"].read() or b"null")
    print(json.dumps(payload))
    return 1 if answer.get("FunctionError") or (isinstance(payload, dict) and "error" in payload) else 0
