"""Proposals in the embedded store (``ProposalRepository``), on the store's connections."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from engram.adapters.sqlite.db import SqliteRepository, decode_cursor, dumps, encode_cursor
from engram.domain.models import Page
from engram.domain.proposals import Proposal, ProposalStatus, proposal_from_dict, proposal_to_dict, superseded_by
from engram.domain.serialization import ts
from engram.ports import ProposalQuery


class SqliteProposalStore(SqliteRepository):
    def create_proposal(self, proposal: Proposal, now: datetime) -> list[str]:
        p = proposal
        superseded: list[str] = []
        with self.db.tx() as conn:
            rows = conn.execute(
                "SELECT body FROM proposals WHERE tenant_id=? AND user_id=? AND target_id=? AND status=? "
                "AND expires_at > ?",
                (p.tenant_id, p.user_id, p.target_id, ProposalStatus.PENDING.value, ts(now)),
            ).fetchall()
            for gone in superseded_by(p, (proposal_from_dict(json.loads(body)) for (body,) in rows), now):
                d = proposal_to_dict(gone)
                conn.execute(
                    "UPDATE proposals SET status=?, revision=?, body=? WHERE tenant_id=? AND user_id=? AND id=?",
                    (d["status"], d["revision"], dumps(d), p.tenant_id, p.user_id, gone.id),
                )
                superseded.append(gone.id)
            conn.execute(
                "INSERT INTO proposals (tenant_id, user_id, id, agent_id, target_id, status, created_at, "
                "expires_at, revision, body) VALUES (?,?,?,?,?,?,?,?,?,?)",
                _row(p),
            )
        return superseded

    def get_proposal(self, tenant_id: str, user_id: str, proposal_id: str) -> Proposal | None:
        row = (
            self.db.conn()
            .execute(
                "SELECT body FROM proposals WHERE tenant_id=? AND user_id=? AND id=?",
                (tenant_id, user_id, proposal_id),
            )
            .fetchone()
        )
        return None if row is None else proposal_from_dict(json.loads(row[0]))

    def list_proposals(self, tenant_id: str, user_id: str, query: ProposalQuery) -> Page[Proposal]:
        where = ["tenant_id=?", "user_id=?"]
        args: list[Any] = [tenant_id, user_id]
        if query.statuses is not None:
            clauses = [_status_clause(status, ts(query.now), args) for status in query.statuses]
            where.append("(" + (" OR ".join(clauses) or "0") + ")")
        if query.agent_id is not None:
            where.append("agent_id=?")
            args.append(query.agent_id)
        if query.target_id is not None:
            where.append("target_id=?")
            args.append(query.target_id)
        if query.cursor:
            created, pid = decode_cursor(query.cursor, 2)
            where.append("(created_at, id) < (?, ?)")
            args.extend([created, pid])
        rows = (
            self.db.conn()
            .execute(
                f"SELECT body, created_at, id FROM proposals WHERE {' AND '.join(where)} "
                "ORDER BY created_at DESC, id DESC LIMIT ?",
                (*args, query.limit + 1),
            )
            .fetchall()
        )
        more = len(rows) > query.limit
        rows = rows[: query.limit]
        items = [proposal_from_dict(json.loads(r[0])) for r in rows]
        return Page(items, encode_cursor([rows[-1][1], rows[-1][2]]) if more and rows else None)

    def update_proposal(self, proposal: Proposal, expected_revision: int) -> bool:
        p = proposal
        with self.db.tx() as conn:
            cur = conn.execute(
                "UPDATE proposals SET status=?, revision=?, body=? WHERE tenant_id=? AND user_id=? AND id=? "
                "AND revision=?",
                (
                    p.status.value,
                    p.revision,
                    dumps(proposal_to_dict(p)),
                    p.tenant_id,
                    p.user_id,
                    p.id,
                    expected_revision,
                ),
            )
            return cur.rowcount == 1

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        with self.db.tx() as conn:
            cur = conn.execute("DELETE FROM proposals WHERE tenant_id=? AND user_id=?", (tenant_id, user_id))
            return {"proposals": cur.rowcount}


def _row(p: Proposal) -> tuple[Any, ...]:
    return (
        p.tenant_id,
        p.user_id,
        p.id,
        p.agent_id,
        p.target_id,
        p.status.value,
        ts(p.created_at),
        ts(p.expires_at),
        p.revision,
        dumps(proposal_to_dict(p)),
    )


def _status_clause(status: ProposalStatus, now: str, args: list[Any]) -> str:
    """The condition for one status, its argument appended to ``args``: a pending
    proposal past its expiry reads as expired before any sweep marks it."""
    if status is ProposalStatus.PENDING:
        args.append(now)
        return "(status='pending' AND expires_at > ?)"
    if status is ProposalStatus.EXPIRED:
        args.append(now)
        return "(status='expired' OR (status='pending' AND expires_at <= ?))"
    args.append(status.value)
    return "status=?"
