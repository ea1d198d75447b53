"""API keys on the embedded store (looked up by key id; the id is the key's hash)."""

from __future__ import annotations

import json
from datetime import datetime

from engram.adapters.sqlite.db import SqliteRepository, dumps
from engram.domain.models import ApiKeyRecord
from engram.domain.serialization import key_from_dict, key_to_dict, ts


class SqliteKeys(SqliteRepository):
    def put_api_key(self, record: ApiKeyRecord) -> None:
        self.db.conn().execute(
            "INSERT OR REPLACE INTO api_keys (key_id, tenant_id, body) VALUES (?,?,?)",
            (record.key_id, record.tenant_id, dumps(key_to_dict(record))),
        )

    def get_api_key(self, key_id: str) -> ApiKeyRecord | None:
        row = self.db.conn().execute("SELECT body FROM api_keys WHERE key_id=?", (key_id,)).fetchone()
        return None if row is None else key_from_dict(json.loads(row[0]))

    def list_api_keys(self, tenant_id: str | None = None) -> list[ApiKeyRecord]:
        if tenant_id is None:
            rows = self.db.conn().execute("SELECT body FROM api_keys ORDER BY key_id").fetchall()
        else:
            rows = (
                self.db.conn()
                .execute("SELECT body FROM api_keys WHERE tenant_id=? ORDER BY key_id", (tenant_id,))
                .fetchall()
            )
        return [key_from_dict(json.loads(r[0])) for r in rows]

    def revoke_api_key(self, key_id: str, at: datetime) -> bool:
        record = self.get_api_key(key_id)
        if record is None or record.revoked_at is not None:
            return False
        body = key_to_dict(record)
        body["revokedAt"] = ts(at)
        self.db.conn().execute("UPDATE api_keys SET body=? WHERE key_id=?", (dumps(body), key_id))
        return True
