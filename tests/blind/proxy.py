"""A blind fault as an implementation: the bundled reference behind the JSON-lines protocol's own
request handling, with the fault's ``handle`` in front of its one operation.

:class:`BlindFault` runs in process (``InProcessAdapter(BlindFault(path))``); ``python
tests/blind/proxy.py FAULT.py`` serves it over the protocol on standard input and output, as any
adapter process. Every request for another operation reaches the reference unchanged, so a fault
can fail only the cases (and generated examples) of its own operation.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from conformance import PROTOCOL_VERSION
from conformance.adapters.base import Implementation, ImplementationError, Skipped, Unsupported
from conformance.adapters.reference import ReferenceImplementation
from conformance.adapters.server import _Server

HERE = Path(__file__).resolve().parent


def batch_faults(batch: str = "batch1") -> list[Path]:
    """The fault modules of ``batch`` (a folder beside this module), in name order."""
    return sorted((HERE / batch).glob("f[0-9][0-9]_*.py"))


def _share_common() -> None:
    """Make ``tests.blind.common`` (the pieces faults share) importable by the faults even where
    the package ``tests`` is another checkout's (``benchmarks/blind.py --kit``): loaded from this
    folder by its path and registered under its name."""
    name = "tests.blind.common"
    if name in sys.modules:
        return
    try:
        importlib.import_module(name)
    except ImportError:
        spec = importlib.util.spec_from_file_location(name, HERE / "common.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)


def load_fault(path: Path) -> ModuleType:
    """The fault module at ``path``, imported under its own name (``blind_f01_...``); the
    attribute ``OP`` holds its operation (the docstring's first line up to `` --``).
    Raises ``ValueError`` when the docstring names no operation or ``handle`` is missing."""
    _share_common()
    spec = importlib.util.spec_from_file_location(f"blind_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    op = (module.__doc__ or "").split(" --")[0].strip()
    if not op or " " in op or not callable(getattr(module, "handle", None)):
        raise ValueError(f"{path}: no operation on the docstring's first line, or no handle()")
    module.OP = op
    return module


def answer_of(reply: dict) -> dict:
    """A protocol answer as an implementation's outcome: the ``result``'s output, or the
    :class:`ImplementationError`, :class:`Unsupported` or :class:`Skipped` it stands for; an
    ``errored`` or malformed answer raises ``RuntimeError`` (an ``errored`` case)."""
    kind = reply.get("type")
    if kind == "result" and isinstance(reply.get("output"), dict):
        return reply["output"]
    if kind == "error":
        raise ImplementationError(reply.get("code", ""), reply.get("message", ""))
    if kind == "unsupported":
        raise Unsupported(reply.get("reason", ""))
    if kind == "skipped":
        raise Skipped(reply.get("reason", ""))
    raise RuntimeError(f"{kind}: {reply.get('message', reply)}")


class BlindFault(Implementation):
    """The reference with the blind fault of module ``path`` in front of its operation."""

    version = "1"
    language = "python"

    def __init__(self, path: Path) -> None:
        self.fault = load_fault(Path(path))
        self.name = f"blind-{Path(path).stem}"
        self.reference = ReferenceImplementation()
        self.server = _Server(self.reference)
        self.server.handle({"type": "start", "protocol": PROTOCOL_VERSION})

    def operations(self) -> list[str]:
        return self.reference.operations()

    def run(self, op: str, input: dict, root: str | None) -> dict:
        msg: dict[str, Any] = {"type": "run", "seq": 1, "op": op, "input": input, "root": root}
        if self.edition is not None:
            msg["edition"] = self.edition

        def call(inp: dict | None = None, op: str | None = None) -> dict:
            request = dict(msg, **({"input": inp} if inp is not None else {}), **({"op": op} if op else {}))
            return self.server.handle(request)

        handle: Callable[[dict, Callable[..., dict]], dict] = self.fault.handle
        return answer_of(handle(msg, call) if op == self.fault.OP else call())


def main(argv: list[str]) -> int:
    """``proxy.py FAULT.py``: serve that fault over the protocol; exit 2 on a bad argument."""
    from conformance.adapters.server import serve_main

    if len(argv) != 1:
        print("usage: proxy.py FAULT.py", file=sys.stderr)
        return 2
    return serve_main(BlindFault(Path(argv[0])))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
