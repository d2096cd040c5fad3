"""Operation catalogue. Every module in this package declares the operations of one area (or one
part of an area) with :func:`conformance.operations.base.operation`; :func:`load_all` imports them.

Importing this package imports no operation module (nor pydantic): :func:`names` answers from
:mod:`conformance.operations.index`, and :func:`get` imports only the module that declares the
operation asked for.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING, Any, Iterable

from conformance.operations.index import OPERATIONS

if TYPE_CHECKING:
    from conformance.operations.base import Operation

__all__ = ["OpModel", "Operation", "catalogue", "operation", "load_all", "get", "names", "load_module", "close_names"]

_loaded = False


def __getattr__(name: str) -> Any:
    """``OpModel``, ``Operation`` and ``operation`` of :mod:`conformance.operations.base`, imported
    when first asked for."""
    if name in ("OpModel", "Operation", "operation"):
        from conformance.operations import base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_all() -> None:
    """Import every operation module of this package once."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name not in ("base", "index", "error_codes") and not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


def load_module(module: str) -> None:
    """Import the operation module ``module`` of this package (a name of
    :data:`conformance.operations.index.OPERATIONS`' values)."""
    importlib.import_module(f"{__name__}.{module}")


def catalogue() -> dict[str, Operation]:
    """Every declared operation by name (importing all area modules first)."""
    from conformance.operations.base import declared

    load_all()
    return declared()


def names() -> list[str]:
    """Every operation's name, sorted, without importing any operation module."""
    return sorted(OPERATIONS)


def get(name: str) -> Operation | None:
    """The operation called ``name``, or ``None`` when no module declares it. Imports only the
    module that declares it (every module for a name the index does not hold)."""
    from conformance.operations.base import declared

    module = OPERATIONS.get(name)
    if module is not None:
        load_module(module)
        found = declared().get(name)
        if found is not None:
            return found
    return catalogue().get(name)


def close_names(op: str, known: Iterable[str] | None = None) -> list[str]:
    """The names of ``known`` that ``op`` (an unknown operation name) is probably a misspelling
    of (``known``: every operation's name when not given): the closest and any as close, at most
    three, none when nothing is close (a ``difflib`` ratio under 0.7). Compared without regard to case, and by the part after the area when the
    areas are the same, so that a shared area alone makes no name close (``envelope.foo`` is
    not ``envelope.session``)."""
    import difflib

    area, _, rest = op.lower().partition(".")
    scored = []
    for name in names() if known is None else known:
        name_area, _, name_rest = name.lower().partition(".")
        a, b = (rest, name_rest) if name_area == area else (op.lower(), name.lower())
        ratio = difflib.SequenceMatcher(None, a, b).ratio()
        if ratio >= 0.7:
            scored.append((-ratio, name))
    scored.sort()
    return [name for ratio, name in scored[:3] if ratio <= scored[0][0] + 0.05]  # the closest, and ties
