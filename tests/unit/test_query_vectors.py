"""The bounded memory of query embeddings (#14): exact, bounded, and no help to unique queries."""

from __future__ import annotations

from engram.adapters.hashing_embedder import HashingEmbedder
from engram.service.query_vectors import QueryVectors


class Counting(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def embed(self, texts: list[str]) -> list[list[float]]:  # type: ignore[override]
        self.calls += 1
        return super().embed(texts)


def test_a_repeated_message_is_embedded_once_and_gets_the_same_vector() -> None:
    embedder = Counting()
    vectors = QueryVectors(embedder, size=4)
    first = vectors.vector("where do I live?")
    again = vectors.vector("where do I live?")
    assert again == first == HashingEmbedder().embed(["where do I live?"])[0]
    assert embedder.calls == 1
    assert (vectors.hits, vectors.misses) == (1, 1)


def test_it_keeps_at_most_size_vectors_forgetting_the_least_recently_used() -> None:
    embedder = Counting()
    vectors = QueryVectors(embedder, size=2)
    vectors.vector("a")
    vectors.vector("b")
    vectors.vector("a")  # a is now the most recent
    vectors.vector("c")  # b goes
    assert list(vectors._vectors) == ["a", "c"]
    vectors.vector("b")
    assert embedder.calls == 4


def test_messages_that_never_repeat_never_hit() -> None:
    embedder = Counting()
    vectors = QueryVectors(embedder, size=8)
    for i in range(100):
        vectors.vector(f"question number {i}")
    assert (vectors.hits, vectors.misses, embedder.calls) == (0, 100, 100)
    assert len(vectors._vectors) == 8
