"""The ``engram`` command line: serve, keys, export, import, demo."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from engram.settings import Settings


def _settings(args: argparse.Namespace) -> Settings:
    overrides: dict[str, Any] = {}
    if getattr(args, "data_dir", None):
        overrides["data_dir"] = Path(args.data_dir)
    if getattr(args, "backend", None):
        overrides["backend"] = args.backend
    if getattr(args, "embedder", None):
        overrides["embedder"] = args.embedder
    return Settings(**overrides)


def _engram(args: argparse.Namespace) -> Any:
    from engram.container import build, set_engram

    engram = build(_settings(args))
    set_engram(engram)
    return engram


def cmd_serve(args: argparse.Namespace) -> int:
    from engram.domain.models import Role
    from engram.local.server import serve

    engram = _engram(args)
    if not engram.keys.list():
        _, key = engram.keys.create(args.tenant, "admin", frozenset({Role.ADMIN}), description="created at first start")
        # Written to a private file, not printed: server output ends up in logs.
        path = engram.settings.data_dir / "admin-key"
        path.touch(mode=0o600)
        path.write_text(key + "\n", encoding="utf-8")
        print(f"First start: created an admin key for tenant '{args.tenant}' in {path} (readable by you only).")
    engram.conversation.recover()  # messages the last run stored but never extracted
    where = engram.settings.sqlite_path if engram.settings.backend == "sqlite" else engram.settings.table_name
    print(f"Engram on http://{args.host}:{args.port}  (docs: /docs, store: {where})", flush=True)
    if args.workers > 1:
        # Worker processes build their own container: hand them these settings.
        os.environ.update(
            ENGRAM_DATA_DIR=str(engram.settings.data_dir),
            ENGRAM_BACKEND=engram.settings.backend,
            ENGRAM_EMBEDDER=engram.settings.embedder,
        )
    serve(engram, args.host, args.port, workers=args.workers)
    return 0


def cmd_keys(args: argparse.Namespace) -> int:
    from engram.domain.models import Role

    engram = _engram(args)
    if args.keys_cmd == "create":
        wanted = frozenset(Role(r) for r in (args.role or ["writer"]))
        record, key = engram.keys.create(args.tenant, args.agent, wanted, tuple(args.group or ()), args.description)
        if args.json:
            print(json.dumps({"keyId": record.key_id, "key": key}))
        else:
            print(f"key id: {record.key_id}\nkey:    {key}\n(the key is shown once; only its hash is stored)")
    elif args.keys_cmd == "list":
        for r in engram.keys.list(args.tenant):
            state = "revoked" if r.revoked_at else "active"
            roles = ",".join(sorted(x.value for x in r.roles))
            print(f"{r.key_id}  {r.tenant_id}  {r.agent_id}  {roles}  {','.join(r.group_ids) or '-'}  {state}")
    else:
        engram.keys.revoke(args.key_id)
        print(f"revoked {args.key_id}")
    return 0


def _admin(tenant: str) -> Any:
    from engram.domain.models import Principal, Role

    return Principal(tenant, "engram-cli", frozenset({Role.ADMIN}))


def cmd_export(args: argparse.Namespace) -> int:
    engram = _engram(args)
    data = engram.privacy.export(_admin(args.tenant), args.user)
    text = json.dumps(data, indent=2, ensure_ascii=False)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"exported {len(data['entries'])} entries to {args.out}")
    else:
        print(text)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from engram.service.privacy import import_user

    engram = _engram(args)
    data = json.loads(Path(args.file).read_text(encoding="utf-8"))
    counts = import_user(engram.store, data, args.tenant)
    engram.sync_index()
    print(json.dumps(counts))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from engram.local.demo import run_demo

    return run_demo(args.url, _settings(args), args.tenant)


def cmd_reembed(args: argparse.Namespace) -> int:
    from engram.adapters.sqlite import SqliteStore
    from engram.adapters.sqlite.user_lister import SqliteUserLister
    from engram.service.reembed import Reembedder

    engram = _engram(args)
    if args.user and not args.tenant:
        print("error: --user needs --tenant", file=sys.stderr)
        return 2
    if not isinstance(engram.store, SqliteStore):
        print("error: the CLI re-embeds the embedded store; the cloud runs reembed_user per user", file=sys.stderr)
        return 2
    report = Reembedder(
        engram.store, SqliteUserLister(engram.store), engram.index, engram.embedder, engram.clock
    ).reembed(args.tenant, args.user)
    print(json.dumps({"modelId": report.model_id, "users": report.users, "entries": report.entries}))
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    import anyio

    from engram.api.mcp_server import run_stdio

    engram = _engram(args)
    key = args.key if args.key else Path(args.key_file).read_text(encoding="utf-8").strip()
    anyio.run(run_stdio, engram, engram.keys.authenticate(key))
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="engram", description="Persistent memory for AI agents.")
    p.add_argument("--data-dir", help="Where the embedded store lives (default ~/.engram).")
    p.add_argument("--backend", choices=["sqlite", "aws"], help="sqlite (default) or aws (DynamoDB).")
    p.add_argument("--embedder", choices=["hash", "minilm", "bedrock"], help="Embedding model.")
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("serve", help="Serve the API on loopback.")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8700)
    s.add_argument("--workers", type=int, default=1, help="Server processes (one per core for throughput; default 1).")
    s.add_argument("--tenant", default="default", help="Tenant of the first admin key.")
    s.set_defaults(func=cmd_serve)

    k = sub.add_parser("keys", help="Create, list or revoke API keys.")
    ks = k.add_subparsers(dest="keys_cmd", required=True)
    kc = ks.add_parser("create")
    kc.add_argument("--tenant", required=True)
    kc.add_argument("--agent", required=True)
    kc.add_argument("--role", action="append", choices=["viewer", "writer", "admin"])
    kc.add_argument("--group", action="append", help="A group the agent belongs to (repeatable).")
    kc.add_argument("--description", default="")
    kc.add_argument("--json", action="store_true")
    kl = ks.add_parser("list")
    kl.add_argument("--tenant")
    kr = ks.add_parser("revoke")
    kr.add_argument("key_id")
    k.set_defaults(func=cmd_keys)

    e = sub.add_parser("export", help="Export everything about a user as JSON.")
    e.add_argument("--tenant", required=True)
    e.add_argument("--user", required=True)
    e.add_argument("--out")
    e.set_defaults(func=cmd_export)

    i = sub.add_parser("import", help="Import a user's export.")
    i.add_argument("file")
    i.add_argument("--tenant", help="Import into this tenant instead of the exported one.")
    i.set_defaults(func=cmd_import)

    d = sub.add_parser("demo", help="A scripted tour of the API against a running server.")
    d.add_argument("--url", default="http://127.0.0.1:8700")
    d.add_argument("--tenant", default="demo")
    d.set_defaults(func=cmd_demo)

    r = sub.add_parser("reembed", help="Re-embed every live memory with the current embedder (after a model change).")
    r.add_argument("--tenant", help="Only this tenant (default: all).")
    r.add_argument("--user", help="Only this user (needs --tenant).")
    r.set_defaults(func=cmd_reembed)

    m = sub.add_parser("mcp", help="Serve the MCP memory tools on stdin/stdout, as the given key.")
    mk = m.add_mutually_exclusive_group(required=True)
    mk.add_argument("--key", help="The API key whose tenant, agent and role the tools act with.")
    mk.add_argument("--key-file", help="A file holding the API key (keeps it out of the process list).")
    m.set_defaults(func=cmd_mcp)

    from engram.local.dream_cli import add_dream_command

    add_dream_command(sub, _settings)
    return p


def main(argv: list[str] | None = None) -> int:
    from engram.domain.errors import EngramError

    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except EngramError as exc:
        print(f"error [{exc.code}]: {exc.message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
