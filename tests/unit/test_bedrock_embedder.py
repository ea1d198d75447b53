"""The Bedrock embedder, through a real bedrock-runtime client under botocore's Stubber.

The Stubber checks every request against the service model (operation, required
parameters, types), and ``JsonBody`` checks the model's own request body.
"""

from __future__ import annotations

import io
import json
import math
import threading
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.response import StreamingBody
from botocore.stub import Stubber
from engram.adapters.bedrock import TITAN_V2, BedrockEmbedder, request_body
from engram.container import make_embedder
from engram.domain.errors import EmbedderUnavailable, Throttled
from engram.settings import Settings


class JsonBody:
    """Equal to a request body that parses to the same JSON."""

    def __init__(self, expected: dict[str, Any]) -> None:
        self.expected = expected

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str | bytes) and json.loads(other) == self.expected

    def __repr__(self) -> str:
        return f"JsonBody({self.expected!r})"


def _unit(dim: int, hot: int) -> list[float]:
    v = [0.0] * dim
    v[hot] = 1.0
    return v


def _answer(vector: list[float]) -> dict[str, Any]:
    payload = json.dumps({"embedding": vector, "inputTextTokenCount": 3}).encode()
    return {"body": StreamingBody(io.BytesIO(payload), len(payload)), "contentType": "application/json"}


def _expect(text: str, dim: int) -> dict[str, Any]:
    return {
        "modelId": TITAN_V2,
        "body": JsonBody({"inputText": text, "dimensions": dim, "normalize": True}),
        "contentType": "application/json",
        "accept": "application/json",
    }


@pytest.fixture
def client() -> Iterator[Any]:
    yield boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="AKIDEXAMPLE", aws_secret_access_key="secret"
    )


class TestEmbed:
    def test_given_texts_when_embedded_then_one_titan_v2_call_each_with_dimensions_and_normalize(
        self, client: Any
    ) -> None:
        embedder = BedrockEmbedder(client, dimension=256, max_concurrency=1)
        with Stubber(client) as stub:
            stub.add_response("invoke_model", _answer(_unit(256, 0)), _expect("likes tea", 256))
            stub.add_response("invoke_model", _answer(_unit(256, 1)), _expect("lives in Oslo", 256))
            vectors = embedder.embed(["likes tea", "lives in Oslo"])
            stub.assert_no_pending_responses()
        assert vectors == [_unit(256, 0), _unit(256, 1)]

    def test_given_a_batch_embedded_side_by_side_then_each_vector_stays_with_its_text(self) -> None:
        class Echo:
            """Answers with the vector the text names, from several threads at once."""

            def __init__(self) -> None:
                self.threads: set[int] = set()
                self.barrier = threading.Barrier(4, timeout=5)

            def invoke_model(self, **kwargs: Any) -> dict[str, Any]:
                self.threads.add(threading.get_ident())
                self.barrier.wait()
                hot = int(json.loads(kwargs["body"])["inputText"].split()[-1])
                return _answer(_unit(512, hot))

        echo = Echo()
        vectors = BedrockEmbedder(echo, max_concurrency=4).embed([f"text {i}" for i in range(4)])  # type: ignore[arg-type]
        assert vectors == [_unit(512, i) for i in range(4)]
        assert len(echo.threads) == 4

    def test_given_blank_text_then_no_call_is_made_and_the_vector_is_zero(self, client: Any) -> None:
        with Stubber(client) as stub:
            assert BedrockEmbedder(client).embed(["  "]) == [[0.0] * 512]
            stub.assert_no_pending_responses()

    def test_given_text_over_the_models_limit_then_it_is_cut_to_50000_characters(self, client: Any) -> None:
        text = "word " * 12_000
        with Stubber(client) as stub:
            stub.add_response("invoke_model", _answer(_unit(512, 3)), _expect(text[:50_000], 512))
            assert BedrockEmbedder(client).embed([text]) == [_unit(512, 3)]

    def test_given_a_long_text_with_too_many_tokens_then_its_head_is_embedded(self, client: Any) -> None:
        text = "語" * 20_000
        with Stubber(client) as stub:
            stub.add_client_error("invoke_model", "ValidationException", "Too many input tokens.", 400)
            stub.add_response("invoke_model", _answer(_unit(512, 5)), _expect(text[:8_192], 512))
            assert BedrockEmbedder(client).embed([text]) == [_unit(512, 5)]

    def test_given_a_vector_of_the_wrong_size_then_it_is_refused(self, client: Any) -> None:
        with Stubber(client) as stub:
            stub.add_response("invoke_model", _answer(_unit(256, 0)), _expect("x", 512))
            with pytest.raises(EmbedderUnavailable):
                BedrockEmbedder(client).embed(["x"])


class TestErrors:
    @pytest.mark.parametrize("code", ["ThrottlingException", "ServiceQuotaExceededException", "ModelNotReadyException"])
    def test_given_bedrock_throttles_then_throttled_is_raised_from_the_client_error(
        self, client: Any, code: str
    ) -> None:
        with Stubber(client) as stub:
            stub.add_client_error("invoke_model", code, "slow down", 429)
            with pytest.raises(Throttled) as info:
                BedrockEmbedder(client).embed(["x"])
        assert info.value.__cause__ is not None

    @pytest.mark.parametrize(("code", "status"), [("AccessDeniedException", 403), ("ModelTimeoutException", 408)])
    def test_given_another_bedrock_error_then_the_embedder_is_unavailable(
        self, client: Any, code: str, status: int
    ) -> None:
        with Stubber(client) as stub:
            stub.add_client_error("invoke_model", code, "no", status)
            with pytest.raises(EmbedderUnavailable):
                BedrockEmbedder(client).embed(["x"])


class TestIdentity:
    @pytest.mark.parametrize("dim", [256, 512, 1024])
    def test_given_a_dimension_then_the_model_id_names_model_and_size(self, client: Any, dim: int) -> None:
        embedder = BedrockEmbedder(client, dimension=dim)
        assert embedder.model_id == f"bedrock:amazon.titan-embed-text-v2:0:{dim}"
        assert embedder.dimension == dim
        assert 0.8 <= embedder.dedup_threshold < 1.0

    def test_given_a_size_titan_v2_does_not_make_then_it_is_refused(self, client: Any) -> None:
        with pytest.raises(ValueError, match="256, 512, 1024"):
            BedrockEmbedder(client, dimension=384)

    def test_given_settings_when_the_container_makes_the_embedder_then_it_is_bedrock_with_their_size(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
        embedder = make_embedder(Settings(embedder="bedrock", bedrock_embedding_dimension=1024, aws_region="eu-west-1"))
        assert isinstance(embedder, BedrockEmbedder)
        assert embedder.model_id == "bedrock:amazon.titan-embed-text-v2:0:1024"
        assert embedder._client.meta.region_name == "eu-west-1"


def test_given_a_request_body_then_it_is_the_documented_titan_v2_shape() -> None:
    assert json.loads(request_body("hi", 512)) == {"inputText": "hi", "dimensions": 512, "normalize": True}
    assert math.isclose(sum(x * x for x in _unit(8, 2)), 1.0)
