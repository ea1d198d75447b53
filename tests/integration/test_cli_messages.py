"""The ``engram`` CLI's mistakes of use: one clean line on stderr and exit status 2, never a
traceback; and nothing created on the way out (no admin key on a busy port, no demo keys)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import boto3
import pytest
from engram.container import build
from engram.local import cli
from engram.local.cli import main, parser
from engram.service.memory import UpsertCommand
from engram.settings import Settings

from tests.support import principal


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def clean_error(err: str, *words: str) -> None:
    assert err.startswith("error: "), err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for word in words:
        assert word in err, err


def keys_in(data_dir: Path) -> list[tuple[str, bool]]:
    return [(r.agent_id, r.revoked_at is None) for r in build(Settings(data_dir=data_dir)).keys.list()]


def test_given_no_such_file_when_importing_then_the_cli_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "--data-dir", str(tmp_path), "import", str(tmp_path / "missing.json"))
    assert code == 2
    clean_error(err, "no such file", "missing.json")


@pytest.mark.parametrize(
    ("text", "words"), [("{not json", ("is not JSON", "line 1")), ("[1, 2]", ("is not an Engram export",))]
)
def test_given_a_file_that_is_not_an_export_when_importing_then_the_cli_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: tuple[str, ...]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    code, _, err = run(capsys, "--data-dir", str(tmp_path), "import", str(bad))
    assert code == 2
    clean_error(err, *words)


def test_given_a_missing_key_file_when_serving_mcp_then_the_cli_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "--data-dir", str(tmp_path), "mcp", "--key-file", str(tmp_path / "nope"))
    assert code == 2
    clean_error(err, "no such key file", "nope")


def test_given_no_aws_credentials_when_using_the_aws_backend_then_the_cli_says_what_to_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_ENDPOINT_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    # A real `engram` run is a fresh process; in this worker an earlier test's boto3 default
    # session may already hold credentials it resolved (moto's), which it would reuse.
    monkeypatch.setattr(boto3, "DEFAULT_SESSION", None)
    code, _, err = run(capsys, "--backend", "aws", "keys", "list")
    assert code == 2
    clean_error(err, "--backend aws needs AWS credentials", "AWS_PROFILE")


def test_given_no_server_when_the_demo_runs_then_it_says_so_and_creates_no_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free once closed: nothing listens there
    code, _, err = run(capsys, "--data-dir", str(tmp_path), "demo", "--url", f"http://127.0.0.1:{port}")
    assert code == 2
    clean_error(err, "no Engram server answers", "engram serve")
    assert keys_in(tmp_path) == []


def test_given_a_busy_port_when_serving_then_it_fails_before_creating_an_admin_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, out, err = run(capsys, "serve", "--data-dir", str(tmp_path), "--port", str(port))
    assert code == 2
    clean_error(err, f"127.0.0.1:{port}", "--port")
    assert "admin key" not in out
    assert not (tmp_path / "admin-key").exists()
    assert keys_in(tmp_path) == []


def test_given_store_options_after_the_command_when_parsed_then_they_count_as_before_it() -> None:
    after = parser().parse_args(["serve", "--data-dir", "/srv/engram", "--backend", "sqlite", "--port", "9000"])
    assert (after.data_dir, after.backend, after.port) == ("/srv/engram", "sqlite", 9000)
    before = parser().parse_args(["--data-dir", "/srv/engram", "serve"])
    assert before.data_dir == "/srv/engram"
    nested = parser().parse_args(["--data-dir", "/a", "keys", "list", "--data-dir", "/b"])
    assert nested.data_dir == "/b"
    assert cli._settings(after).data_dir == Path("/srv/engram")


def test_given_a_terminal_when_importing_then_progress_is_drawn_on_stderr_and_not_otherwise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = build(Settings(data_dir=tmp_path / "a"))
    who = principal("t1", "agent-a")
    for i in range(30):
        source.memory.upsert(who, "bob", [UpsertCommand(key=f"k{i}", value=f"value {i}")])
    dump = tmp_path / "bob.json"
    dump.write_text(json.dumps(source.privacy.export(cli._admin("t1"), "bob"), default=str))

    code, out, err = run(capsys, "--data-dir", str(tmp_path / "b"), "import", str(dump))
    assert code == 0 and json.loads(out)["entries"] == 30
    assert err == ""  # not a terminal: quiet

    monkeypatch.setattr("engram.local.progress.interactive", lambda: True)
    code, out, err = run(capsys, "--data-dir", str(tmp_path / "c"), "import", str(dump))
    assert code == 0 and json.loads(out)["entries"] == 30
    assert "import" in err and "index" in err and "30/30" in err
