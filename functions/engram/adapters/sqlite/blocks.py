"""Memory blocks, their versions and archival memory in the embedded store
(``BlockRepository``), on the store's connections."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engram.adapters.sqlite.db import SqliteRepository, decode_cursor, dumps, encode_cursor
from engram.domain.archival import ArchivalRecord, archival_from_dict, archival_to_dict
from engram.domain.blocks import (
    BlockVersion,
    MemoryBlock,
    block_from_dict,
    block_to_dict,
    block_version_from_dict,
    block_version_to_dict,
)
from engram.domain.errors import VersionConflict
from engram.domain.models import Page
from engram.domain.serialization import ts


class SqliteBlockStore(SqliteRepository):
    # -- blocks ---------------------------------------------------------------------------
    def get_block(self, tenant_id: str, user_id: str, agent_id: str, name: str) -> MemoryBlock | None:
        row = (
            self.db.conn()
            .execute(
                "SELECT body FROM memory_blocks WHERE tenant_id=? AND user_id=? AND agent_id=? AND name=?",
                (tenant_id, user_id, agent_id, name),
            )
            .fetchone()
        )
        return None if row is None else block_from_dict(json.loads(row[0]))

    def list_blocks(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> list[MemoryBlock]:
        sql = "SELECT body FROM memory_blocks WHERE tenant_id=? AND user_id=?"
        args: list[Any] = [tenant_id, user_id]
        if agent_id is not None:
            sql += " AND agent_id=?"
            args.append(agent_id)
        rows = self.db.conn().execute(sql + " ORDER BY agent_id, name", args).fetchall()
        return [block_from_dict(json.loads(r[0])) for r in rows]

    def commit_block(
        self, version: BlockVersion, expected_version: int | None, archival: Sequence[ArchivalRecord] = ()
    ) -> None:
        b = version.block
        key = (b.tenant_id, b.user_id, b.agent_id, b.name)
        with self.db.tx() as conn:
            row = conn.execute(
                "SELECT version FROM memory_blocks WHERE tenant_id=? AND user_id=? AND agent_id=? AND name=?", key
            ).fetchone()
            stored = None if row is None else int(row[0])
            if stored != expected_version:
                raise VersionConflict(
                    "This block was changed by someone else; read it again and retry.",
                    block=b.name,
                    expected=expected_version,
                    found=stored,
                )
            conn.execute(
                "INSERT OR REPLACE INTO memory_blocks (tenant_id, user_id, agent_id, name, version, body) "
                "VALUES (?,?,?,?,?,?)",
                (*key, b.version, dumps(block_to_dict(b))),
            )
            conn.execute(
                "INSERT INTO memory_block_versions (tenant_id, user_id, agent_id, name, version, body) "
                "VALUES (?,?,?,?,?,?)",
                (*key, b.version, dumps(block_version_to_dict(version))),
            )
            for r in archival:
                conn.execute(
                    "INSERT INTO archival (tenant_id, user_id, id, agent_id, created_at, indexed, body) "
                    "VALUES (?,?,?,?,?,0,?)",
                    (r.tenant_id, r.user_id, r.id, r.agent_id, ts(r.created_at), dumps(archival_to_dict(r))),
                )

    def block_history(
        self,
        tenant_id: str,
        user_id: str,
        agent_id: str,
        name: str,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[BlockVersion]:
        after = int(decode_cursor(cursor, 1)[0]) if cursor else 0
        rows = (
            self.db.conn()
            .execute(
                "SELECT version, body FROM memory_block_versions WHERE tenant_id=? AND user_id=? AND agent_id=? "
                "AND name=? AND version > ? ORDER BY version LIMIT ?",
                (tenant_id, user_id, agent_id, name, after, limit + 1),
            )
            .fetchall()
        )
        more = len(rows) > limit
        rows = rows[:limit]
        items = [block_version_from_dict(json.loads(r[1])) for r in rows]
        return Page(items, encode_cursor([rows[-1][0]]) if more and rows else None)

    def block_version(
        self, tenant_id: str, user_id: str, agent_id: str, name: str, version: int
    ) -> BlockVersion | None:
        row = (
            self.db.conn()
            .execute(
                "SELECT body FROM memory_block_versions WHERE tenant_id=? AND user_id=? AND agent_id=? "
                "AND name=? AND version=?",
                (tenant_id, user_id, agent_id, name, version),
            )
            .fetchone()
        )
        return None if row is None else block_version_from_dict(json.loads(row[0]))

    def block_history_of_user(self, tenant_id: str, user_id: str) -> list[BlockVersion]:
        rows = (
            self.db.conn()
            .execute(
                "SELECT body FROM memory_block_versions WHERE tenant_id=? AND user_id=? "
                "ORDER BY agent_id, name, version",
                (tenant_id, user_id),
            )
            .fetchall()
        )
        return [block_version_from_dict(json.loads(r[0])) for r in rows]

    # -- archival -------------------------------------------------------------------------
    def get_archival(self, tenant_id: str, user_id: str, archival_ids: Sequence[str]) -> list[ArchivalRecord]:
        out: list[ArchivalRecord] = []
        ids = list(dict.fromkeys(archival_ids))
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            rows = (
                self.db.conn()
                .execute(
                    f"SELECT body, indexed FROM archival WHERE tenant_id=? AND user_id=? "
                    f"AND id IN ({','.join('?' * len(chunk))})",
                    (tenant_id, user_id, *chunk),
                )
                .fetchall()
            )
            out.extend(archival_from_dict(json.loads(r[0]), bool(r[1])) for r in rows)
        return out

    def list_archival(
        self,
        tenant_id: str,
        user_id: str,
        agent_id: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page[ArchivalRecord]:
        where = ["tenant_id=?", "user_id=?"]
        args: list[Any] = [tenant_id, user_id]
        if agent_id is not None:
            where.append("agent_id=?")
            args.append(agent_id)
        if cursor:
            created, aid = decode_cursor(cursor, 2)
            where.append("(created_at, id) < (?, ?)")
            args.extend([created, aid])
        rows = (
            self.db.conn()
            .execute(
                f"SELECT body, indexed, created_at, id FROM archival WHERE {' AND '.join(where)} "
                "ORDER BY created_at DESC, id DESC LIMIT ?",
                (*args, limit + 1),
            )
            .fetchall()
        )
        more = len(rows) > limit
        rows = rows[:limit]
        items = [archival_from_dict(json.loads(r[0]), bool(r[1])) for r in rows]
        return Page(items, encode_cursor([rows[-1][2], rows[-1][3]]) if more and rows else None)

    def unindexed_archival(self, tenant_id: str, user_id: str, limit: int = 100) -> list[ArchivalRecord]:
        rows = (
            self.db.conn()
            .execute(
                "SELECT body FROM archival WHERE tenant_id=? AND user_id=? AND indexed=0 ORDER BY created_at LIMIT ?",
                (tenant_id, user_id, limit),
            )
            .fetchall()
        )
        return [archival_from_dict(json.loads(r[0])) for r in rows]

    def mark_archival_indexed(self, tenant_id: str, user_id: str, archival_ids: Sequence[str]) -> None:
        ids = list(dict.fromkeys(archival_ids))
        with self.db.tx() as conn:
            for i in range(0, len(ids), 500):
                chunk = ids[i : i + 500]
                conn.execute(
                    f"UPDATE archival SET indexed=1 WHERE tenant_id=? AND user_id=? "
                    f"AND id IN ({','.join('?' * len(chunk))})",
                    (tenant_id, user_id, *chunk),
                )

    def delete_archival(self, tenant_id: str, user_id: str, archival_ids: Sequence[str]) -> int:
        ids = list(dict.fromkeys(archival_ids))
        gone = 0
        with self.db.tx() as conn:
            for i in range(0, len(ids), 500):
                chunk = ids[i : i + 500]
                cur = conn.execute(
                    f"DELETE FROM archival WHERE tenant_id=? AND user_id=? AND id IN ({','.join('?' * len(chunk))})",
                    (tenant_id, user_id, *chunk),
                )
                gone += cur.rowcount
        return gone

    # -- erasure --------------------------------------------------------------------------
    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        with self.db.tx() as conn:
            for name, table in (
                ("blocks", "memory_blocks"),
                ("blockVersions", "memory_block_versions"),
                ("archival", "archival"),
            ):
                cur = conn.execute(f"DELETE FROM {table} WHERE tenant_id=? AND user_id=?", (tenant_id, user_id))
                counts[name] = cur.rowcount
        return counts
