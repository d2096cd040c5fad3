"""Reference handlers of the kit's own operations."""

from conformance.adapters.reference import Context, implements
from conformance.operations.kit import EchoInput, EchoOutput


@implements("kit.echo")
def echo(inp: EchoInput, ctx: Context) -> EchoOutput:
    return EchoOutput(value=inp.value)
