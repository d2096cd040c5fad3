"""Operations of the kit itself, used by ``pi-conformance smoke`` and the round-trip benchmark."""

from __future__ import annotations

from typing import Any

from conformance.operations.base import OpModel, operation


class EchoInput(OpModel):
    """Any JSON value under ``value``."""

    value: Any = None


class EchoOutput(OpModel):
    """The same JSON value, unchanged."""

    value: Any = None


ECHO = operation(
    "kit.echo",
    input=EchoInput,
    output=EchoOutput,
    summary="Return the input value unchanged (handshake and round-trip checks).",
)
