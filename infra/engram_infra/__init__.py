"""Engram on AWS with the CDK: ``EngramMemory`` (the reusable construct) and ``EngramStack``.

The CDK loads lazily, so ``engram_infra.assets`` (used by the layer build and the size
benchmark) imports without starting jsii.
"""

from __future__ import annotations

from typing import Any

__all__ = ["EngramConfig", "EngramMemory", "EngramStack"]


def __getattr__(name: str) -> Any:
    if name == "EngramConfig":
        from engram_infra.config import EngramConfig

        return EngramConfig
    if name == "EngramMemory":
        from engram_infra.memory import EngramMemory

        return EngramMemory
    if name == "EngramStack":
        from engram_infra.stack import EngramStack

        return EngramStack
    raise AttributeError(name)
