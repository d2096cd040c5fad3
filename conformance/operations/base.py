"""The operation catalogue: each operation's name, input model and output model. Field names are the
JSON names exactly as the specification spells them (``activeTools``, ``customType``), so models
use no aliases."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from conformance.corpus.public import private_reference
from conformance.operations.error_codes import ERRORS


class OpModel(BaseModel):
    """Base class of every operation input and output model.

    Unknown fields are refused (``extra="forbid"``) so that a typo in a scenario's ``input`` is
    reported with its field path instead of being silently ignored.
    """

    model_config = ConfigDict(extra="forbid", frozen=False, defer_build=True)


@dataclass(frozen=True)
class Operation:
    """One entry of the operation catalogue.

    Attributes:
        name: ``<area>.<name>``; ``area`` is one of ``envelope``, ``profiles``, ``pi``, ``kit``.
        input: pydantic model that validates a case's ``input``.
        output: pydantic model that an implementation's result must satisfy.
        summary: one line for ``pi-conformance list`` and the adapter guide.
        uses_tree: whether cases of this operation may carry a file ``tree`` that the kit
            materialises and passes to the adapter as ``root``.
        module: the module that declares it (what :mod:`conformance.operations.index` names).
        errors: the error codes it may answer that no clause names, each with its meaning
            (:data:`conformance.operations.error_codes.ERRORS`).
    """

    name: str
    input: type[BaseModel]
    output: type[BaseModel]
    summary: str
    uses_tree: bool = False
    normalisers: tuple[str, ...] = field(default=())
    module: str = field(default="", compare=False)
    errors: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def area(self) -> str:
        return self.name.split(".", 1)[0]


_CATALOGUE: dict[str, Operation] = {}


def operation(
    name: str,
    *,
    input: type[BaseModel],
    output: type[BaseModel],
    summary: str,
    uses_tree: bool = False,
) -> Operation:
    """Declare an operation (at import time of an area module of this package): ``name`` is
    ``<area>.<name>`` (``envelope.environment``); ``input`` and ``output`` are the pydantic models
    of its JSON objects, from which the published JSON Schemas under
    ``conformance/schema/operations`` are generated. Raises ``ValueError`` when the name is malformed or already taken, or
    when the summary (shown by ``list`` and on the docs site) cites a private working file or note
    (:func:`conformance.corpus.public.private_reference`)."""
    area, _, rest = name.partition(".")
    if not area or not rest:
        raise ValueError(f"operation name {name!r} must be '<area>.<name>'")
    if name in _CATALOGUE:
        raise ValueError(f"operation {name!r} is declared twice")
    if (private := private_reference(summary)) is not None:
        raise ValueError(f"operation {name!r}: the summary cites {private!r}, which is not in the repository")
    module = sys._getframe(1).f_globals.get("__name__", "")
    op = Operation(name=name, input=input, output=output, summary=summary, uses_tree=uses_tree, module=module,
                   errors=dict(ERRORS.get(name, {})))
    _CATALOGUE[name] = op
    return op


def declared() -> dict[str, Operation]:
    """The operations declared so far, by name (:func:`conformance.operations.catalogue` imports
    every area module first; this module imports none, so no module imports back into it)."""
    return dict(_CATALOGUE)
