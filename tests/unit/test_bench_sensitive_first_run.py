"""The first run of a held-out part prints and keeps figures only: a miss it wrote down would
spend the part for whoever read it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bench.common
from bench.sensitive_first_run import groups, main

SAMPLES = {
    "sensitive_samples_holdout_q1.txt": [
        "S | my wifi password is Zebra!Lantern42",
        "N | the zebra crossing by the lantern shop",
        # a miss on purpose: a hint no filter can call a secret
        "S | the pw is my dog's name then the year we moved",
    ],
    "sensitive_samples_holdout_q2.txt": ["C | card 4111 1111 1111 1111", "N | order 4111-2233 shipped"],
}


@pytest.fixture
def parts(tmp_path: Path) -> list[Path]:
    paths = []
    for name, lines in SAMPLES.items():
        path = tmp_path / name
        path.write_text("# lang: en\n" + "\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def test_files_make_a_part_by_their_letter_and_all_of_them_together(parts: list[Path]) -> None:
    by = groups(parts)
    assert {k: len(v) for k, v in by.items()} == {"held_out_q1": 3, "held_out_q2": 2, "held_out_q": 5, "all": 5}


def test_the_results_and_the_output_hold_figures_and_no_samples_text(
    parts: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench.common, "RESULTS", tmp_path / "results")
    result = main(["q", *map(str, parts), "--note", "two tiny parts"])
    written = (tmp_path / "results" / "sensitive_corpus_q_first_run.json").read_text(encoding="utf-8")
    printed = capsys.readouterr().out
    assert result["all"]["filter"]["missed_samples"] >= 1
    assert json.loads(written)["parts"]["all"]["filter"]["per_category"]["payment_card"]["tp"] == 1
    for text in ("dog's name", "Zebra!Lantern42", "zebra crossing", "4111 1111", "4111-2233"):
        assert text not in written
        assert text not in printed
