"""Dream's state on the embedded store: the sparse due index, runs, the cost ledger.

Shares the store's connection (``db.SqliteDb``; tables from the ``dream_v1`` migration).
``mark_due`` runs inside ``SqliteEntries.apply``'s transaction, so a committed change and
its user's due mark are one atomic write.
"""

from __future__ import annotations

import base64
import json
import sqlite3
from datetime import datetime
from typing import Any

from engram.adapters.sqlite.db import SqliteRepository
from engram.domain.dream import DREAM_ACTOR
from engram.domain.dream_run import DreamRun, RunStatus, Stats, Trigger, UserOutcome
from engram.domain.errors import ValidationFailed
from engram.domain.models import Changeset, Page
from engram.domain.serialization import parse_ts, parse_ts_opt, ts, ts_opt
from engram.ports import DueState, DueUser

_MARK_DUE = (
    "INSERT INTO dream_due (tenant_id, user_id, due_at, activity) VALUES (?,?,?,1) "
    "ON CONFLICT (tenant_id, user_id) DO UPDATE SET activity = activity + 1, "
    "due_at = CASE WHEN due_at IS NULL OR due_at > excluded.due_at THEN excluded.due_at ELSE due_at END"
)
_RUN_COLUMNS = (
    "run_id, tenant_id, trigger, as_of, started_at, status, plan_cursor, users_planned, batches_sent, "
    "users_done, finished_at"
)


def by_dream(changeset: Changeset) -> bool:
    """Dream's own changes do not make a user due: the pass that made them records the
    user's next due time from the state they leave."""
    return bool(changeset.history) and all(h.actor == DREAM_ACTOR for h in changeset.history)


def mark_due(conn: sqlite3.Connection, changeset: Changeset, now: datetime) -> None:
    """Inside the store's write transaction: the changed user is due now."""
    if not by_dream(changeset):
        conn.execute(_MARK_DUE, (changeset.tenant_id, changeset.user_id, ts(now)))


class SqliteDreamState(SqliteRepository):
    def _conn(self) -> sqlite3.Connection:
        return self.db.conn()

    # -- the due index -------------------------------------------------------------------
    def due_users(
        self, as_of: datetime, limit: int, cursor: str | None = None, tenant_id: str | None = None
    ) -> Page[DueUser]:
        where = ["due_at IS NOT NULL", "due_at <= ?"]
        args: list[Any] = [ts(as_of)]
        if tenant_id is not None:
            where.append("tenant_id = ?")
            args.append(tenant_id)
        if cursor:
            where.append("(due_at, tenant_id, user_id) > (?,?,?)")
            args.extend(_decode(cursor, 3))
        rows = (
            self._conn()
            .execute(
                f"SELECT due_at, tenant_id, user_id FROM dream_due WHERE {' AND '.join(where)} "
                "ORDER BY due_at, tenant_id, user_id LIMIT ?",
                (*args, limit + 1),
            )
            .fetchall()
        )
        more = len(rows) > limit
        rows = rows[:limit]
        items = [DueUser(r[1], r[2], parse_ts(r[0])) for r in rows]
        return Page(items, _encode(list(rows[-1])) if more and rows else None)

    def due_state(self, tenant_id: str, user_id: str) -> DueState | None:
        row = (
            self._conn()
            .execute(
                "SELECT due_at, activity, last_pass_at FROM dream_due WHERE tenant_id=? AND user_id=?",
                (tenant_id, user_id),
            )
            .fetchone()
        )
        return None if row is None else DueState(parse_ts_opt(row[0]), int(row[1]), parse_ts_opt(row[2]))

    def mark_due(self, tenant_id: str, user_id: str, at: datetime) -> None:
        self._conn().execute(_MARK_DUE, (tenant_id, user_id, ts(at)))

    # -- runs ------------------------------------------------------------------------------
    def create_run(self, run: DreamRun) -> DreamRun:
        self._conn().execute(
            f"INSERT OR IGNORE INTO dream_runs ({_RUN_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                run.run_id,
                run.tenant_id,
                run.trigger.value,
                ts(run.as_of),
                ts(run.started_at),
                run.status.value,
                run.plan_cursor,
                run.users_planned,
                run.batches_sent,
                run.users_done,
                ts_opt(run.finished_at),
            ),
        )
        stored = self.get_run(run.run_id)
        assert stored is not None
        return stored

    def get_run(self, run_id: str) -> DreamRun | None:
        row = self._conn().execute(f"SELECT {_RUN_COLUMNS} FROM dream_runs WHERE run_id=?", (run_id,)).fetchone()
        return None if row is None else _run(row)

    def list_runs(self, tenant_id: str, limit: int = 20, cursor: str | None = None) -> Page[DreamRun]:
        where = "(tenant_id IS NULL OR tenant_id = ?)"
        args: list[Any] = [tenant_id]
        if cursor:
            where += " AND (started_at, run_id) < (?,?)"
            args.extend(_decode(cursor, 2))
        rows = (
            self._conn()
            .execute(
                f"SELECT {_RUN_COLUMNS} FROM dream_runs WHERE {where} ORDER BY started_at DESC, run_id DESC LIMIT ?",
                (*args, limit + 1),
            )
            .fetchall()
        )
        more = len(rows) > limit
        rows = rows[:limit]
        return Page([_run(r) for r in rows], _encode([rows[-1][4], rows[-1][0]]) if more and rows else None)

    def record_plan_progress(
        self, run_id: str, expected_cursor: str | None, cursor: str | None, users: int, batches: int, done: bool
    ) -> DreamRun | None:
        with self.db.tx() as conn:
            cur = conn.execute(
                "UPDATE dream_runs SET plan_cursor=?, users_planned=users_planned+?, batches_sent=batches_sent+?, "
                "status=CASE WHEN ? THEN ? ELSE status END WHERE run_id=? AND status=? AND plan_cursor IS ?",
                (
                    cursor,
                    users,
                    batches,
                    done,
                    RunStatus.RUNNING.value,
                    run_id,
                    RunStatus.PLANNING.value,
                    expected_cursor,
                ),
            )
            if cur.rowcount == 0:
                return None
            row = conn.execute(f"SELECT {_RUN_COLUMNS} FROM dream_runs WHERE run_id=?", (run_id,)).fetchone()
        return _run(row)

    def is_done(self, run_id: str, tenant_id: str, user_id: str) -> bool:
        row = (
            self._conn()
            .execute(
                "SELECT 1 FROM dream_run_users WHERE run_id=? AND tenant_id=? AND user_id=?",
                (run_id, tenant_id, user_id),
            )
            .fetchone()
        )
        return row is not None

    def finish_user(self, run_id: str, outcome: UserOutcome) -> bool:
        t, u = outcome.tenant_id, outcome.user_id
        with self.db.tx() as conn:
            cur = conn.execute(
                "INSERT OR IGNORE INTO dream_run_users (run_id, tenant_id, user_id) VALUES (?,?,?)",
                (run_id, t, u),
            )
            if cur.rowcount == 0:
                return False
            conn.executemany(
                "INSERT INTO dream_run_counters (run_id, tenant_id, name, value) VALUES (?,?,?,?) "
                "ON CONFLICT (run_id, tenant_id, name) DO UPDATE SET value = value + excluded.value",
                [(run_id, t, name, value) for name, value in outcome.stats.counters().items() if value],
            )
            conn.execute("UPDATE dream_runs SET users_done = users_done + 1 WHERE run_id=?", (run_id,))
            # A write since the pass read the user keeps them due (its mark stands).
            conn.execute(
                "UPDATE dream_due SET due_at=?, last_pass_at=COALESCE(?, last_pass_at) "
                "WHERE tenant_id=? AND user_id=? AND activity=?",
                (ts_opt(outcome.next_due), ts_opt(outcome.passed_at), t, u, outcome.seen_activity),
            )
        return True

    def complete_run(self, run_id: str, at: datetime) -> bool:
        cur = self._conn().execute(
            "UPDATE dream_runs SET status=?, finished_at=? WHERE run_id=? AND status=? AND users_done >= users_planned",
            (RunStatus.COMPLETED.value, ts(at), run_id, RunStatus.RUNNING.value),
        )
        return cur.rowcount == 1

    def run_stats(self, run_id: str, tenant_id: str | None = None) -> Stats:
        sql = "SELECT name, SUM(value) FROM dream_run_counters WHERE run_id=?"
        args: tuple[Any, ...] = (run_id,)
        if tenant_id is not None:
            sql += " AND tenant_id=?"
            args = (run_id, tenant_id)
        rows = self._conn().execute(sql + " GROUP BY name", args).fetchall()
        return Stats.from_counters({r[0]: r[1] for r in rows})

    # -- the cost ledger -------------------------------------------------------------------
    def reserve_cost(self, run_id: str, tenant_id: str, agent_id: str, micros: int, cap_micros: int) -> bool:
        with self.db.tx() as conn:
            row = conn.execute(
                "SELECT committed FROM dream_costs WHERE run_id=? AND tenant_id=? AND agent_id=?",
                (run_id, tenant_id, agent_id),
            ).fetchone()
            committed = 0 if row is None else int(row[0])
            if committed + micros > cap_micros:
                return False
            conn.execute(
                "INSERT INTO dream_costs (run_id, tenant_id, agent_id, committed) VALUES (?,?,?,?) "
                "ON CONFLICT (run_id, tenant_id, agent_id) DO UPDATE SET committed = committed + excluded.committed",
                (run_id, tenant_id, agent_id, micros),
            )
        return True

    def settle_cost(self, run_id: str, tenant_id: str, agent_id: str, reserved: int, actual: int) -> None:
        self._conn().execute(
            "UPDATE dream_costs SET committed = committed - ? + ?, spent = spent + ? "
            "WHERE run_id=? AND tenant_id=? AND agent_id=?",
            (reserved, actual, actual, run_id, tenant_id, agent_id),
        )

    # -- erasure -------------------------------------------------------------------------------
    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        with self.db.tx() as conn:
            due = conn.execute("DELETE FROM dream_due WHERE tenant_id=? AND user_id=?", (tenant_id, user_id))
            done = conn.execute(
                "DELETE FROM dream_run_users WHERE tenant_id=? AND user_id=?",
                (tenant_id, user_id),
            )
            return {"dreamDue": due.rowcount, "dreamRunMarkers": done.rowcount}


def _run(row: Any) -> DreamRun:
    return DreamRun(
        run_id=row[0],
        tenant_id=row[1],
        trigger=Trigger(row[2]),
        as_of=parse_ts(row[3]),
        started_at=parse_ts(row[4]),
        status=RunStatus(row[5]),
        plan_cursor=row[6],
        users_planned=int(row[7]),
        batches_sent=int(row[8]),
        users_done=int(row[9]),
        finished_at=parse_ts_opt(row[10]),
    )


def _encode(values: list[Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(values, separators=(",", ":")).encode()).decode().rstrip("=")


def _decode(cursor: str, arity: int) -> list[Any]:
    try:
        values = json.loads(base64.urlsafe_b64decode((cursor + "=" * (-len(cursor) % 4)).encode()))
    except (ValueError, TypeError) as exc:
        raise ValidationFailed("The cursor is not one this API issued.", field="cursor") from exc
    if not isinstance(values, list) or len(values) != arity or not all(isinstance(v, str) for v in values):
        raise ValidationFailed("The cursor does not fit this listing.", field="cursor")
    return values
