"""A Powertools idempotency persistence layer on the embedded SQLite store.

Why our own layer: Powertools ships DynamoDB, Redis and an in-memory cache, and the
laptop has neither DynamoDB nor Redis; an in-memory layer would forget every record
at a restart, so a message re-queued after a restart would be extracted twice. This
layer keeps the records in the same SQLite file as the data they protect and follows
the DynamoDB layer's conditional-put semantics, so the local worker and the Lambda
behave alike.
"""

from __future__ import annotations

import time
from typing import Any

from aws_lambda_powertools.utilities.idempotency import BasePersistenceLayer
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyItemAlreadyExistsError,
    IdempotencyItemNotFoundError,
)
from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import STATUS_CONSTANTS, DataRecord

from engram.adapters.sqlite.db import SqliteDb


class SqliteIdempotencyLayer(BasePersistenceLayer):
    def __init__(self, db: SqliteDb) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # Powertools' __init__ is unannotated
        self.db = db

    def _get_record(self, idempotency_key: str) -> DataRecord:
        row = (
            self.db.conn()
            .execute(
                "SELECT id, status, expiration, in_progress_expiration, data, validation "
                "FROM idempotency_records WHERE id=?",
                (idempotency_key,),
            )
            .fetchone()
        )
        if row is None:
            raise IdempotencyItemNotFoundError
        return _record(row)

    def _put_record(self, data_record: DataRecord) -> None:
        now = time.time()
        with self.db.tx() as conn:
            row = conn.execute(
                "SELECT id, status, expiration, in_progress_expiration, data, validation "
                "FROM idempotency_records WHERE id=?",
                (data_record.idempotency_key,),
            ).fetchone()
            if row is not None:
                old = _record(row)
                # The same three conditions as Powertools' DynamoDB put: a record blocks
                # unless it has expired or is an in-progress one whose Lambda timed out.
                expired = old.expiry_timestamp is not None and old.expiry_timestamp < int(now)
                stale_progress = (
                    row[1] == STATUS_CONSTANTS["INPROGRESS"]
                    and old.in_progress_expiry_timestamp is not None
                    and old.in_progress_expiry_timestamp < int(now * 1000)
                )
                if not (expired or stale_progress):
                    # As Powertools' DynamoDB layer does: a key reused for a different
                    # payload is refused, not answered with the other request's result.
                    self._validate_payload(data_payload=data_record, stored_data_record=old)
                    raise IdempotencyItemAlreadyExistsError(old_data_record=old)
            conn.execute(
                "INSERT OR REPLACE INTO idempotency_records "
                "(id, status, expiration, in_progress_expiration, data, validation) VALUES (?,?,?,?,?,?)",
                (
                    data_record.idempotency_key,
                    data_record.status,
                    data_record.expiry_timestamp,
                    data_record.in_progress_expiry_timestamp,
                    data_record.response_data or None,
                    data_record.payload_hash or None,
                ),
            )

    def _update_record(self, data_record: DataRecord) -> None:
        self.db.conn().execute(
            "UPDATE idempotency_records SET status=?, expiration=?, data=?, validation=? WHERE id=?",
            (
                data_record.status,
                data_record.expiry_timestamp,
                data_record.response_data or None,
                data_record.payload_hash or None,
                data_record.idempotency_key,
            ),
        )

    def _delete_record(self, data_record: DataRecord) -> None:
        self.db.conn().execute("DELETE FROM idempotency_records WHERE id=?", (data_record.idempotency_key,))

    def count(self) -> int:
        return int(self.db.conn().execute("SELECT COUNT(*) FROM idempotency_records").fetchone()[0])


def _record(row: Any) -> DataRecord:
    return DataRecord(
        idempotency_key=row[0],
        status=row[1],
        expiry_timestamp=row[2],
        in_progress_expiry_timestamp=row[3],
        response_data=row[4] or "",
        payload_hash=row[5] or "",
    )
