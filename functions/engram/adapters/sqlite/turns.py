"""The write rate per turn on the embedded store: one counter row per (agent, turn)."""

from __future__ import annotations

from datetime import datetime, timedelta

from engram.adapters.sqlite.db import SqliteRepository
from engram.domain.errors import GuardrailViolation
from engram.domain.serialization import ts


class SqliteTurnCounter(SqliteRepository):
    def add_turn_writes(
        self,
        tenant_id: str,
        agent_id: str,
        turn_id: str,
        count: int,
        limit: int,
        expires_at: datetime,
    ) -> int:
        with self.db.tx() as conn:
            row = conn.execute(
                "SELECT count FROM turn_writes WHERE tenant_id=? AND agent_id=? AND turn_id=?",
                (tenant_id, agent_id, turn_id),
            ).fetchone()
            total = (0 if row is None else int(row[0])) + count
            if total > limit:
                raise GuardrailViolation(
                    "too_many_writes",
                    f"This turn would make {total} memory writes; this agent allows at most {limit} per turn.",
                    maxWritesPerTurn=limit,
                    turnId=turn_id,
                )
            conn.execute(
                "INSERT OR REPLACE INTO turn_writes (tenant_id, agent_id, turn_id, count, expires_at) "
                "VALUES (?,?,?,?,?)",
                (tenant_id, agent_id, turn_id, total, ts(expires_at)),
            )
            # Turns whose window closed a day before this one's opened are long over.
            conn.execute(
                "DELETE FROM turn_writes WHERE expires_at < ?",
                (ts(expires_at - timedelta(days=2)),),
            )
        return total
