"""Operation catalogue. Every module in this package declares the operations of one area (or one
part of an area) with :func:`conformance.operations.base.operation`; :func:`load_all` imports them.
"""

from __future__ import annotations

import importlib
import pkgutil

from conformance.operations.base import OpModel, Operation, declared, operation

__all__ = ["OpModel", "Operation", "catalogue", "operation", "load_all", "get"]

_loaded = False


def load_all() -> None:
    """Import every operation module of this package once."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name != "base" and not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


def catalogue() -> dict[str, Operation]:
    """Every declared operation by name (importing all area modules first)."""
    load_all()
    return declared()


def get(name: str) -> Operation | None:
    """The operation called ``name``, or ``None`` when no module declares it."""
    return catalogue().get(name)
