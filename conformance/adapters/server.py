"""Serving any :class:`~conformance.adapters.base.Implementation` over the JSON-lines protocol on
standard input and output (the adapter's end of PROTOCOL.md).

:func:`serve` serves an implementation on two streams; :func:`serve_main` on this process's own;
:func:`serve_reference_main` is ``pi-conformance serve-reference``. ``python -m
conformance.adapters.server [MODULE:CLASS]`` serves the reference, or the ``Implementation``
subclass ``CLASS`` of module ``MODULE``.
"""

from __future__ import annotations

import importlib
import io
import os
import sys
import traceback
from typing import IO

from conformance import PROTOCOL_VERSION
from conformance.adapters.base import Implementation, ImplementationError, Skipped, Unsupported, operations_problem
from conformance.adapters.protocol import (
    MAX_LINE_BYTES,
    PROTOCOL_UNSUPPORTED,
    MalformedMessage,
    decode_message,
    encode_message,
    is_int,
    long_number,
    malformed_result,
    protocol_error,
)
from conformance.operations import get as get_operation
from conformance.errors import ExitCode, validation_problem

__all__ = ["serve", "serve_main", "serve_reference_main", "main"]


def _validation_detail(exc: Exception) -> str:
    """'input.field.sub: what is wrong; ...' for a pydantic ``ValidationError``."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return str(exc)
    parts = []
    for error in errors():
        loc = ".".join(str(part) for part in ("input", *error.get("loc", ())))
        parts.append(f"{loc}: {validation_problem(error)}")
    return "; ".join(parts) or str(exc)


class _Server:
    """The state of one served session: started or not, the implementation's operations."""

    def __init__(self, implementation: Implementation) -> None:
        self.implementation = implementation
        self.started = False
        self.operations: set[str] = set()

    def handle(self, message: dict) -> dict:
        kind = message.get("type")
        seq = message.get("seq") if is_int(message.get("seq")) else None
        if kind == "start":
            return self._start(message)
        if kind == "run":
            return self._run(message, seq)
        if kind == "stop":
            return {"type": "stopped"}
        if kind is None:
            return protocol_error(seq, "the message has no 'type'")
        return protocol_error(seq, f"unknown message type {kind!r}")

    def _start(self, message: dict) -> dict:
        protocol = message.get("protocol")
        if not is_int(protocol):
            return protocol_error(None, "'start' field 'protocol' must be an integer")
        if protocol != PROTOCOL_VERSION:
            return {
                "type": "error",
                "code": PROTOCOL_UNSUPPORTED,
                "message": f"this adapter speaks protocol {PROTOCOL_VERSION}, not {protocol}",
                "protocols": [PROTOCOL_VERSION],
            }
        if self.started:
            return protocol_error(None, "the adapter has already started")
        impl = self.implementation
        try:
            ops = impl.operations()
        except Exception as exc:  # the implementation cannot say what it provides
            traceback.print_exc(file=sys.stderr)
            return {
                "type": "error",
                "code": "start-failed",
                "message": f"{impl.name}: operations() raised {type(exc).__name__}: {exc}",
            }
        problem = operations_problem(impl, ops)
        if problem is not None:
            return {"type": "error", "code": "start-failed", "message": problem}
        self.operations = set(ops)
        self.started = True
        started = {
            "type": "started",
            "protocol": PROTOCOL_VERSION,
            "implementation": {"name": impl.name, "version": impl.version, "language": impl.language},
            "operations": sorted(self.operations),
        }
        gives = list(getattr(impl, "gives", ()) or ())
        return {**started, "gives": gives} if gives else started

    def _run(self, message: dict, seq: int | None) -> dict:
        if seq is None:
            return protocol_error(None, "'run' field 'seq' must be an integer")
        if not self.started:
            return protocol_error(seq, "'run' before 'start'")
        op = message.get("op")
        if not isinstance(op, str) or not op:
            return protocol_error(seq, "'run' field 'op' must be a non-empty string")
        inp = message.get("input")
        if not isinstance(inp, dict):
            return protocol_error(seq, "'run' field 'input' must be an object")
        root = message.get("root")
        if root is not None and not isinstance(root, str):
            return protocol_error(seq, "'run' field 'root' must be a string or null")
        edition = message.get("edition")
        if edition is not None and not isinstance(edition, str):
            return protocol_error(seq, "'run' field 'edition' must be a string when present")
        if op not in self.operations:
            return {"type": "unsupported", "seq": seq, "reason": f"{self.implementation.name} does not provide {op}"}
        declared = get_operation(op)
        if declared is not None:
            try:
                declared.input.model_validate(inp)
            except ValueError as exc:  # pydantic's ValidationError is a ValueError
                return protocol_error(seq, f"invalid input for {op}: {_validation_detail(exc)}")
        self.implementation.edition = edition
        try:
            output = self.implementation.run(op, inp, root)
        except ImplementationError as exc:
            return {"type": "error", "seq": seq, "code": exc.code, "message": exc.message}
        except Unsupported as exc:
            return {"type": "unsupported", "seq": seq, "reason": str(exc)}
        except Skipped as exc:
            return {"type": "skipped", "seq": seq, "reason": str(exc)}
        except Exception as exc:  # the implementation failed outside the specification
            traceback.print_exc(file=sys.stderr)
            return {"type": "errored", "seq": seq, "message": f"{op} raised {type(exc).__name__}: {exc}"}
        malformed = malformed_result(op, output)
        if malformed is not None:
            return {"type": "errored", "seq": seq, "message": malformed}
        return {"type": "result", "seq": seq, "output": output}


def serve(implementation: Implementation, stdin: IO, stdout: IO) -> int:
    """Serve ``implementation`` over the protocol until ``stop`` or the end of ``stdin``.

    ``stdin`` and ``stdout`` are binary streams (text streams are accepted too). Every line read
    gets exactly one line written and flushed: ``started`` (or the ``error`` refusing another
    protocol version), an answer to ``run``, ``stopped``, or ``protocol-error`` for a malformed
    request -- a line that is not one JSON object, a missing or ill-typed field, an unknown type,
    ``run`` before ``start``, or an input that the operation's input model refuses (the message
    names the field). The implementation's :class:`ImplementationError`, :class:`Unsupported` and
    :class:`Skipped` become ``error``, ``unsupported`` and ``skipped``; any other exception becomes
    ``errored`` with its traceback on standard error. Returns the exit code, 0.
    """
    server = _Server(implementation)
    text_out = isinstance(stdout, io.TextIOBase)
    while True:
        line = stdin.readline(MAX_LINE_BYTES)
        if not line:
            return ExitCode.OK
        if isinstance(line, str):
            line = line.encode("utf-8", "surrogatepass")
        if len(line) >= MAX_LINE_BYTES and not line.endswith(b"\n"):
            reply = protocol_error(None, f"a line longer than {MAX_LINE_BYTES} bytes")
            while line and not line.endswith(b"\n"):  # skip the rest of it
                line = stdin.readline(MAX_LINE_BYTES)
                if isinstance(line, str):
                    line = line.encode("utf-8", "surrogatepass")
        else:
            try:
                message = decode_message(line)
            except MalformedMessage as exc:
                reply = protocol_error(None, f"the line is {exc}")
            else:
                reply = server.handle(message)
        try:
            data = encode_message(reply)
        except (TypeError, ValueError) as exc:
            long = long_number(reply)
            data = encode_message({"type": "errored", "seq": reply.get("seq"),
                                   "message": f"output holds {long}" if long else f"the answer is not JSON: {exc}"})
        stdout.write(data.decode("utf-8") if text_out else data)
        stdout.flush()
        if reply.get("type") == "stopped":
            return ExitCode.OK


def serve_main(implementation: Implementation) -> int:
    """Serve ``implementation`` on this process's standard input and output; the exit code.

    Standard output is kept for protocol lines only: file descriptor 1 and ``sys.stdout`` are
    pointed at standard error, so whatever the implementation (or a child process) prints cannot
    corrupt the protocol. The implementation is closed at the end.
    """
    sys.stdout.flush()
    protocol_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        return serve(implementation, sys.stdin.buffer, protocol_out)
    except BrokenPipeError:
        return ExitCode.FAILED
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM and SIGHUP under pi-conformance's handler
        from conformance.output.console import interrupted_exit_code

        return interrupted_exit_code(exc)
    finally:
        try:
            implementation.close()
        finally:
            try:
                protocol_out.close()
            except OSError:
                pass


def serve_reference_main() -> int:
    """``pi-conformance serve-reference``: the bundled reference over the protocol; exit code."""
    from conformance.adapters.reference import ReferenceImplementation

    return serve_main(ReferenceImplementation())


def main(argv: list[str], prog: str = "python -m conformance.adapters.server") -> int:
    """``python -m conformance.adapters.server [MODULE:CLASS]``: serve the reference, or the
    :class:`Implementation` subclass ``CLASS`` of module ``MODULE``; the exit code (2 for a bad
    argument or a class that cannot be loaded)."""
    if not argv:
        return serve_reference_main()
    if len(argv) != 1 or ":" not in argv[0]:
        print(f"usage: {prog} [MODULE:CLASS]", file=sys.stderr)
        return ExitCode.USAGE
    module_name, _, class_name = argv[0].partition(":")
    try:
        implementation = getattr(importlib.import_module(module_name), class_name)()
    except Exception as exc:
        print(f"cannot load implementation {argv[0]}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    if not isinstance(implementation, Implementation):
        print(f"{argv[0]} is not a conformance.adapters.base.Implementation", file=sys.stderr)
        return ExitCode.USAGE
    return serve_main(implementation)


if __name__ == "__main__":
    from conformance.output.console import leave

    leave(main(sys.argv[1:]))  # not held by a thread the implementation left running
