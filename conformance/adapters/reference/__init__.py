"""The bundled reference implementation, exposed operation by operation.

Each module in this package maps the operations of one area onto calls into :mod:`reference`,
registering a handler with :func:`implements`. A handler receives the validated input model and a
:class:`Context`, and returns the output model (or a plain ``dict``); a
:class:`reference.errors.SpecError` becomes an ``error`` answer with its code.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from pydantic import BaseModel

import reference
from conformance.adapters.base import Implementation, ImplementationError
from conformance.operations import get as get_operation, names as operation_names
from conformance.operations.index import OPERATIONS

Handler = Callable[[Any, "Context"], Any]
_HANDLERS: dict[str, Handler] = {}


@dataclass(frozen=True)
class Context:
    """What a handler gets besides its input.

    Attributes:
        root: absolute path of the case's materialised file tree, or ``None`` when it has none.
        edition: the edition of the specification the case is judged by (``pi-1.6.0``), as the
            adapter was told it; ``None`` when not told (the area's default edition applies).
    """

    root: str | None
    edition: str | None = None


def implements(op_name: str) -> Callable[[Handler], Handler]:
    """Register the decorated function as the reference's handler of ``op_name``."""

    def register(fn: Handler) -> Handler:
        if op_name in _HANDLERS:
            raise ValueError(f"reference handler for {op_name!r} registered twice")
        _HANDLERS[op_name] = fn
        return fn

    return register


_loaded: set[str] = set()


@lru_cache(maxsize=1)
def _modules() -> tuple[str, ...]:
    return tuple(sorted(info.name for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_")))


def _load(area: str | None = None) -> None:
    """Import the handler modules of ``area`` (those named ``<area>`` or ``<area>_<part>``), or
    every one (``None``), once."""
    if len(_loaded) == len(_modules()):
        return
    for name in _modules():
        if name not in _loaded and (area is None or name == area or name.startswith(area + "_")):
            _loaded.add(name)
            importlib.import_module(f"{__name__}.{name}")


def handlers() -> dict[str, Handler]:
    """Every registered handler, importing the area modules first."""
    _load()
    return dict(_HANDLERS)


def handler(op: str) -> Handler:
    """The handler of ``op``, importing only the handler module named as the operation module that
    declares it (:mod:`conformance.operations.index`), else the modules of its area
    (``<area>.<name>``), else every one. Raises ``KeyError`` when the reference has none."""
    own = OPERATIONS.get(op)
    if op not in _HANDLERS and own in _modules() and own not in _loaded:
        _loaded.add(own)
        importlib.import_module(f"{__name__}.{own}")
    if op not in _HANDLERS:
        _load(op.partition(".")[0])
    if op not in _HANDLERS:
        _load()
    return _HANDLERS[op]


def whole_numbers(value: Any) -> Any:
    """``value`` with every whole ``float`` written as an ``int`` (``128000.0`` -> ``128000``).

    JSON has one number type, and Pi (JavaScript) writes a whole number without a fraction; a
    Python ``float`` field or an input read as ``3.0`` must not leak ``.0`` into an answer.
    """
    if isinstance(value, float):  # as JavaScript writes a whole number: in plain digits below 1e21
        return int(value) if value.is_integer() and abs(value) < 1e21 else value
    if isinstance(value, list):
        return [whole_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: whole_numbers(v) for k, v in value.items()}
    return value


def to_json(value: Any) -> Any:
    """A handler's return value as plain JSON data (pydantic models dumped by field name), whole
    numbers as integers (:func:`whole_numbers`)."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", exclude_unset=False)
    return whole_numbers(value)


class ReferenceImplementation(Implementation):
    """The reference as an in-process :class:`~conformance.adapters.base.Implementation`."""

    name = "reference"
    version = reference.__version__
    language = "python"
    gives = ("diagnostic.scope", "diagnostic.subject", "diagnostic.detail", "loser.reason")

    def operations(self) -> list[str]:
        """Every operation of the catalogue: the reference implements each (``tests/test_kit_runner.py``
        checks that its handlers are exactly the catalogue), so a run imports the handler modules
        of the areas it asks for only."""
        return operation_names()

    def run(self, op: str, input: dict, root: str | None) -> dict:
        from reference.errors import SpecError

        implementation = handler(op)
        model = get_operation(op).input.model_validate(input)
        try:
            return to_json(implementation(model, Context(root=root, edition=self.edition)))
        except SpecError as exc:
            raise ImplementationError(exc.code, exc.message) from exc
