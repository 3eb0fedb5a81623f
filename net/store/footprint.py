"""What a Python object really holds in memory: it and everything it reaches, counted once.

An estimate from above (interned strings count too), which is what a cache budget wants.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterable
from typing import Any

_SKIPPED = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.CodeType,
    types.FrameType,
)
"""Kinds of objects the whole process shares: never counted as one object's bytes."""

_ATOMS = (str, bytes, bytearray, int, float, complex, bool, type(None), range)
"""Objects that reach nothing else."""


def footprint(root: Any, shared: Iterable[Any] = ()) -> int:
    """Bytes held by ``root`` and every object it reaches, each counted once, leaving out
    the process's shared objects and ``shared`` (and what only they reach)."""
    seen = {id(item) for item in shared}
    total = 0
    pending = [root]
    while pending:
        item = pending.pop()
        if id(item) in seen or isinstance(item, _SKIPPED):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, _ATOMS):
            continue
        pending.extend(_reached(item))
    return total


def _reached(item: Any) -> list[Any]:
    if isinstance(item, dict):
        return [*item.keys(), *item.values()]
    if isinstance(item, list | tuple | set | frozenset):
        return list(item)
    reached: list[Any] = []
    attributes = getattr(item, "__dict__", None)
    if isinstance(attributes, dict):
        reached.append(attributes)
    for cls in type(item).__mro__:
        for slot in _slot_names(cls):
            value = getattr(item, slot, None)
            if value is not None:
                reached.append(value)
    return reached


def _slot_names(cls: type) -> tuple[str, ...]:
    slots = cls.__dict__.get("__slots__", ())
    if isinstance(slots, str):
        slots = (slots,)
    return tuple(name for name in slots if name not in ("__dict__", "__weakref__"))
