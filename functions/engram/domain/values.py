"""Frozen value objects that are quick to build.

A frozen dataclass's generated ``__init__`` sets each field with
``object.__setattr__``, looked up again for every field. Recall builds a few hundred
index hits, ranking signals and score parts per call, and building them was about a
sixth of its time (issue #19, latency). ``quick_init`` gives a frozen, slotted
dataclass an ``__init__`` that binds ``object.__setattr__`` to the new object once (as
attrs does): the same parameters, defaults and values; the object stays frozen.
"""

from __future__ import annotations

import inspect
from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar

_T = TypeVar("_T")

# Stands for "not given" where a field's default comes from a factory.
_FACTORY = object()


def quick_init(cls: type[_T]) -> type[_T]:
    """Replace the generated ``__init__`` of ``cls`` (a frozen, slotted dataclass without
    ``__post_init__`` or fields left out of ``__init__``) by the quicker one."""
    params = getattr(cls, "__dataclass_params__", None)
    if not is_dataclass(cls) or params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: quick_init is for frozen, slotted dataclasses")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick_init does not run __post_init__")
    namespace: dict[str, Any] = {"_bind": object.__setattr__.__get__, "_FACTORY": _FACTORY}
    positional: list[str] = []
    keyword: list[str] = []
    body = ["  s = _bind(self)"]
    for f in fields(cls):
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: quick_init needs every field in __init__")
        param = f.name
        if f.default is not MISSING:
            namespace[f"_default_{f.name}"] = f.default
            param = f"{f.name}=_default_{f.name}"
        elif f.default_factory is not MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            param = f"{f.name}=_FACTORY"
            body.append(f"  if {f.name} is _FACTORY: {f.name} = _factory_{f.name}()")
        (keyword if f.kw_only else positional).append(param)
        body.append(f"  s({f.name!r}, {f.name})")
    params_text = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    exec(f"def __init__({params_text}):\n" + "\n".join(body), namespace)  # noqa: S102 - code built from field names only
    init = namespace["__init__"]
    generated = cls.__init__
    if _shape(init) != _shape(generated):  # anything this does not know of (an InitVar, say)
        raise TypeError(f"{cls.__name__}: quick_init would change the parameters of __init__")
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = generated.__doc__
    setattr(cls, "__init__", init)  # noqa: B010 - replacing a method on purpose
    return cls


def _shape(init: Any) -> list[tuple[str, Any, bool]]:
    """Each parameter's name, kind and whether it has a default."""
    return [(p.name, p.kind, p.default is not p.empty) for p in inspect.signature(init).parameters.values()]
