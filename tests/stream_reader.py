"""A DynamoDB table's stream on moto server, read as the Lambda event source hands it over."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import boto3

from tests.moto_server import DUMMY_CREDENTIALS, REGION


class StreamReader:
    """New records of the table's stream since the last call, in the Lambda event's shape."""

    def __init__(self, ddb: Any, table: str, endpoint: str) -> None:
        self._ddb = ddb
        self._table = table
        self._streams = boto3.client(
            "dynamodbstreams",
            endpoint_url=endpoint,
            region_name=REGION,
            aws_access_key_id=DUMMY_CREDENTIALS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=DUMMY_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        )
        self._seen: set[str] = set()

    @property
    def arn(self) -> str:
        return str(self._ddb.describe_table(TableName=self._table)["Table"]["LatestStreamArn"])

    def records(self) -> list[dict[str, Any]]:
        arn = self.arn
        out: list[dict[str, Any]] = []
        for shard in self._streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
            iterator = self._streams.get_shard_iterator(
                StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON"
            )["ShardIterator"]
            for _ in range(1000):
                page = self._streams.get_records(ShardIterator=iterator, Limit=1000)
                for record in page["Records"]:
                    seq = record["dynamodb"]["SequenceNumber"]
                    if seq in self._seen:
                        continue
                    self._seen.add(seq)
                    body = dict(record["dynamodb"])
                    created = body.get("ApproximateCreationDateTime")
                    if isinstance(created, datetime):
                        body["ApproximateCreationDateTime"] = created.timestamp()
                    out.append({**record, "dynamodb": body, "eventSourceARN": arn})
                iterator = page.get("NextShardIterator")
                if not iterator or not page["Records"]:
                    break
        return out
