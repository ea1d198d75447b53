"""A stand-in for the Lambda context object, for driving handlers outside Lambda."""

from __future__ import annotations

from engram.adapters.local_queue import InProcessContext as LocalContext

__all__ = ["LocalContext"]
