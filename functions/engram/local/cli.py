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


class CliError(Exception):
    """A problem the user can fix: printed as one line, exit status 2, no traceback."""


def _port_free(host: str, port: int) -> None:
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # As uvicorn binds: connections of a server that just died linger in TIME_WAIT on
        # the port, and without SO_REUSEADDR they would make a free port look busy.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise CliError(
                f"cannot listen on {host}:{port} ({exc.strerror or exc}); is another server running? "
                "Pick another port with --port."
            ) from None


def cmd_serve(args: argparse.Namespace) -> int:
    from engram.domain.models import Role
    from engram.local.server import serve

    # Before anything is created: a busy port must not leave a fresh admin key behind.
    _port_free(args.host, args.port)
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
    from engram.local.progress import progress_bar

    engram = _engram(args)
    with progress_bar("export", unit="parts") as bar:
        # One read of everything about the user; the bar says it is working on a terminal.
        data = engram.privacy.export(_admin(args.tenant), args.user)
        bar.total(1)
        bar.set(1)
    text = json.dumps(data, indent=2, ensure_ascii=False)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"exported {len(data['entries'])} entries to {args.out}")
    else:
        print(text)
    return 0


def _read_export(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"no such file: {path}") from None
    except (IsADirectoryError, PermissionError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {path}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path} is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not isinstance(data, dict) or "userId" not in data or not isinstance(data.get("entries", []), list):
        raise CliError(f"{path} is not an Engram export (expected the JSON object `engram export` writes)")
    return data


def cmd_import(args: argparse.Namespace) -> int:
    from engram.local.progress import progress_bar
    from engram.service.privacy import import_user

    data = _read_export(Path(args.file))
    engram = _engram(args)
    if args.tenant is None and "tenantId" not in data:
        raise CliError(f"{args.file} names no tenant: pass --tenant")
    with progress_bar("import", unit="memories") as bar:
        counts = import_user(engram.repos.entries, engram.repos.profiles, data, args.tenant, bar.step)
    with progress_bar("index", total=counts["entries"], unit="changes") as bar:
        engram.sync_index(bar.set)
    print(json.dumps(counts))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from engram.local.demo import DemoServerMissing, run_demo

    try:
        return run_demo(args.url, _settings(args), args.tenant)
    except DemoServerMissing as exc:
        raise CliError(str(exc)) from None


def cmd_reembed(args: argparse.Namespace) -> int:
    from engram.container import reembedder_of

    engram = _engram(args)
    if args.user and not args.tenant:
        print("error: --user needs --tenant", file=sys.stderr)
        return 2
    users = engram.backend.user_lister()
    if users is None:
        print("error: the CLI re-embeds the embedded store; the cloud runs reembed_user per user", file=sys.stderr)
        return 2
    from engram.local.progress import progress_bar

    with progress_bar("reembed", unit="users") as bar:
        report = reembedder_of(engram, users).reembed(args.tenant, args.user, bar.step)
    done = report.documents
    counts = {"entries": report.entries, "messages": done.messages, "summaries": done.summaries}
    print(json.dumps({"modelId": report.model_id, "users": report.users, **counts, "archival": done.archival}))
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    import anyio

    from engram.api.mcp_server import run_stdio

    if args.key:
        key = args.key
    else:
        try:
            key = Path(args.key_file).read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            raise CliError(f"no such key file: {args.key_file} (create a key with `engram keys create`)") from None
        except (IsADirectoryError, PermissionError, UnicodeDecodeError) as exc:
            raise CliError(f"cannot read the key file {args.key_file}: {exc}") from None
        if not key:
            raise CliError(f"the key file {args.key_file} is empty")
    engram = _engram(args)
    anyio.run(run_stdio, engram, engram.keys.authenticate(key))
    return 0


def _store_options(p: argparse.ArgumentParser, default: Any = None) -> None:
    p.add_argument("--data-dir", default=default, help="Where the embedded store lives (default ~/.engram).")
    p.add_argument("--backend", default=default, choices=["sqlite", "aws"], help="sqlite (default) or aws (DynamoDB).")
    p.add_argument("--embedder", default=default, choices=["hash", "minilm", "bedrock"], help="Embedding model.")


class _Parser(argparse.ArgumentParser):
    def add_subparsers(self, **kwargs: Any) -> Any:
        action = super().add_subparsers(**kwargs)
        add_parser = action.add_parser

        def add(name: str, **kw: Any) -> argparse.ArgumentParser:
            # Store options work before or after the command (`engram serve --data-dir X`);
            # SUPPRESS keeps a command's absent option from hiding the one given before it.
            common = argparse.ArgumentParser(add_help=False)
            _store_options(common, argparse.SUPPRESS)
            parents = [*kw.pop("parents", []), common]
            sub: argparse.ArgumentParser = add_parser(name, parents=parents, **kw)
            return sub

        action.add_parser = add  # type: ignore[method-assign]
        return action


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="engram", description="Persistent memory for AI agents.")
    _store_options(p)
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

    r = sub.add_parser("reembed", help="Re-embed memories, messages, summaries and archival with the current embedder.")
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
    from engram.local.reindex_cli import add_reindex_command

    add_reindex_command(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    from engram.domain.errors import EngramError

    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except EngramError as exc:
        print(f"error [{exc.code}]: {exc.message}", file=sys.stderr)
        return 2
    except Exception as exc:
        message = _aws_problem(exc)
        if message is None:
            raise
        print(f"error: {message}", file=sys.stderr)
        return 2


def _aws_problem(exc: Exception) -> str | None:
    """A one-line message for AWS set-up problems (--backend aws), None for anything else."""
    try:
        from botocore.exceptions import BotoCoreError, NoCredentialsError, NoRegionError
    except ImportError:
        return None
    if isinstance(exc, NoCredentialsError):
        return (
            "--backend aws needs AWS credentials and none were found: set AWS_PROFILE (or "
            "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), or run where a role provides them"
        )
    if isinstance(exc, NoRegionError):
        return "--backend aws needs a region: set AWS_REGION (or AWS_DEFAULT_REGION)"
    if isinstance(exc, BotoCoreError):
        return f"AWS could not be reached: {exc}"
    return None


if __name__ == "__main__":
    raise SystemExit(main())
