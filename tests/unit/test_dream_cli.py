"""``engram dream`` on the embedded store: one process or a pool, the same result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engram.container import build
from engram.local.cli import main
from engram.service.memory import UpsertCommand
from engram.settings import Settings

from tests.support import principal


def _seed(data_dir: Path, users: int) -> None:
    engram = build(Settings(data_dir=data_dir))
    for u in range(users):
        engram.memory.upsert(
            principal("t1", "agent-a"),
            f"u{u}",
            [UpsertCommand("city", "Paris"), UpsertCommand("mood", "fine", category="context")],
        )


@pytest.mark.parametrize("workers", [1, 2])
def test_given_due_users_when_engram_dream_runs_then_it_reports_them_and_a_second_run_finds_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: int
) -> None:
    _seed(tmp_path, 5)
    assert main(["--data-dir", str(tmp_path), "dream", "--json", "--workers", str(workers)]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["status"] == "completed"
    assert report["users_processed"] == 5 and report["entries_read"] == 10
    assert main(["--data-dir", str(tmp_path), "dream", "--json"]) == 0
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert again["users_processed"] == 0


def test_given_a_terminal_when_engram_dream_runs_then_it_prints_a_summary_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed(tmp_path, 2)
    assert main(["--data-dir", str(tmp_path), "dream"]) == 0
    out = capsys.readouterr().out
    assert "users processed" in out and "entries read" in out and "users/s" in out


def test_given_a_terminal_when_engram_dream_runs_then_the_bar_advances_every_few_users(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from engram.local import dream_runner
    from rich.console import Console

    _seed(tmp_path, 12)
    batches: list[int] = []
    original = dream_runner.run_dream

    def counting(*args: object, on_batch: object = None, **kwargs: object) -> object:
        def seen(result: object) -> None:
            batches.append(result.processed)  # type: ignore[attr-defined]
            on_batch(result)  # type: ignore[operator]

        return original(*args, on_batch=seen, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(dream_runner, "run_dream", counting)
    monkeypatch.setattr(Console, "is_terminal", property(lambda self: True))
    assert main(["--data-dir", str(tmp_path), "dream"]) == 0
    # 12 users in batches of 5: the bar moved three times, not once from 0 to done.
    assert batches == [5, 5, 2]
