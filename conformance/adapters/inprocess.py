"""The in-process adapter: runs a Python :class:`~conformance.adapters.base.Implementation`.

Inputs are passed as a fresh JSON copy and outputs are checked to be JSON data, so an in-process
implementation sees and returns exactly what it would over the JSON-lines protocol.

``--timeout`` bounds each call as it bounds a request to an adapter process: the calls run in a
worker thread of the adapter and the kit waits for each at most the timeout. A call still running then is
answered ``errored`` (the implementation gave no answer); Python cannot stop a thread, so the call
goes on in the background until it returns or the kit exits, and the later requests go to the same
implementation meanwhile (a call that loops takes a share of the processor all the while). After
:data:`MAX_TIMEOUTS` calls in a row timed out the implementation counts as hung, as an adapter
process does, and the remaining requests are answered ``errored`` without being made. To have a
hung call killed, serve the implementation as a process (``python -m conformance.adapters.server
MODULE:CLASS``).
"""

from __future__ import annotations

import importlib
import json
import os
import queue
import sys
import threading
import traceback
import weakref

from conformance.adapters.base import (
    MAX_TIMEOUTS,
    AdapterNameError,
    AdapterStartError,
    Answer,
    Hello,
    Implementation,
    ImplementationError,
    Skipped,
    Unsupported,
)
from conformance import PROTOCOL_VERSION


class _Worker:
    """A daemon thread that makes the calls put in ``jobs`` (callables), one after the other, until
    it takes ``None``: one thread for every call of an adapter (a thread started for each call
    cost several times the call to ``kit.echo``), replaced after a call that did not return in
    time."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="pi-conformance implementation", daemon=True).start()

    def _serve(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            job()
            del job  # the call holds its adapter: waiting with it would keep the adapter alive


class InProcessAdapter:
    """Adapter over an :class:`Implementation` instance living in this process."""

    def __init__(self, implementation: Implementation) -> None:
        self.implementation = implementation
        self._ops: set[str] = set()
        self._timeouts = 0  # calls in a row that did not return within their timeout
        self._worker: _Worker | None = None  # made at the first request

    def start(self) -> Hello:
        try:
            self._ops = set(self.implementation.operations())
        except (Exception, SystemExit) as exc:  # the implementation's own fault
            raise AdapterStartError(f"{type(self.implementation).__name__}.operations() failed: "
                                    f"{type(exc).__name__}: {exc}") from exc
        impl = self.implementation
        return Hello(name=impl.name, version=impl.version, language=impl.language,
                     operations=sorted(self._ops), protocol=PROTOCOL_VERSION)

    def run(self, op: str, input: dict, *, root: str | None, timeout: float | None,
            edition: str | None = None) -> Answer:
        """Call the implementation on one request in a thread, waiting at most ``timeout``
        seconds (``None``: without a bound); see the module docstring for a call that does not
        return in time. Never raises for the implementation's faults."""
        if op not in self._ops:
            return Answer("unsupported", message=f"{self.implementation.name} does not provide {op}")
        name = self.implementation.name
        if self._timeouts >= MAX_TIMEOUTS:
            return Answer("errored", no_answer=True,
                          message=f"{name} is hung: {self._timeouts} calls in a row did not return within their "
                                  "timeout, so the rest of this run's requests are not made")
        answered: list[Answer] = []
        raised: list[BaseException] = []
        done = threading.Event()

        def call() -> None:
            try:
                answered.append(self._call(op, input, root, edition))
            except BaseException as exc:  # KeyboardInterrupt, say: raised here, as without the thread
                raised.append(exc)
            finally:
                done.set()

        if self._worker is None:
            self._worker = _Worker()
            weakref.finalize(self, self._worker.jobs.put, None)  # an adapter never stopped ends it too
        self._worker.jobs.put(call)
        done.wait(timeout)
        if raised:
            raise raised[0]
        if not answered:
            self._worker.jobs.put(None)  # it ends once the call returns; the next request gets a new one
            self._worker = None
            self._timeouts += 1
            return Answer("errored", no_answer=True,
                          message=f"{name} did not return from {op} within {timeout:g} s (--timeout); the call "
                                  "goes on in the background until it returns or the kit exits, as a call in "
                                  "process cannot be stopped")
        self._timeouts = 0
        return answered[0]

    def _call(self, op: str, input: dict, root: str | None, edition: str | None) -> Answer:
        """The implementation's answer to one request (run in the request's thread)."""
        self.implementation.edition = edition
        try:
            output = self.implementation.run(op, json.loads(json.dumps(input)), root)
        except ImplementationError as exc:
            return Answer.error(exc.code, exc.message)
        except Unsupported as exc:
            return Answer("unsupported", message=str(exc))
        except Skipped as exc:
            return Answer("skipped", message=str(exc))
        except (Exception, SystemExit) as exc:
            # SystemExit too: an implementation that calls sys.exit() has failed this case; it
            # must never end the run (and never with the exit code it chose).
            tail = "".join(traceback.format_exception(exc))[-4000:]
            return Answer("errored", message=f"{type(exc).__name__}: {exc}", stderr=tail)
        try:
            return Answer.result(json.loads(json.dumps(output, allow_nan=False)))
        except (TypeError, ValueError) as exc:
            return Answer("errored", message=f"output is not JSON data: {exc}", no_answer=True)

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.jobs.put(None)
            self._worker = None
        self.implementation.close()


def look_in_working_folder_first() -> None:
    """Put the current folder first on ``sys.path`` (as ``python -m`` does) unless it is there,
    so a user's own module (an implementation, a faults module) is found."""
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())


def where_looked(exc: Exception, module_name: str) -> str:
    """Where ``module_name`` was looked for, when ``exc`` says that it (not one of its own
    imports) was not found; else ``""``."""
    missing = getattr(exc, "name", None) if isinstance(exc, ModuleNotFoundError) else None
    if not missing or not (module_name == missing or module_name.startswith(missing + ".")):
        return ""
    return (f"\n  MODULE is imported from sys.path: the current folder ({os.getcwd()}), then PYTHONPATH, "
            f"then the installed packages; run from the folder that holds {module_name.replace('.', '/')}.py "
            "(or its package), or add that folder to PYTHONPATH")


def load_implementation(spec: str) -> Implementation:
    """``MODULE:CLASS`` -> an instance of that :class:`Implementation` subclass.

    ``MODULE`` is imported from ``sys.path``: the current folder first (as ``python -m`` does),
    then ``PYTHONPATH``, then the installed packages. Raises :class:`AdapterNameError` when ``spec``
    is not of that form (a dotted module name, a colon, a class name), :class:`AdapterStartError`
    when the module or class cannot be loaded; when the module itself is not found, the message
    says where it was looked for.
    """
    module_name, _, class_name = spec.partition(":")
    if not class_name.isidentifier() or not all(part.isidentifier() for part in module_name.split(".")):
        raise AdapterNameError(f"--adapter python:{spec}: give python:MODULE:CLASS, a module's dotted name and "
                               "the name of its Implementation class (e.g. python:my_impl:MyImplementation)")
    look_in_working_folder_first()
    try:
        module = importlib.import_module(module_name)
        impl = getattr(module, class_name)()
    except Exception as exc:
        raise AdapterStartError(f"cannot load python:{spec}: {type(exc).__name__}: {exc}{where_looked(exc, module_name)}") from exc
    if not isinstance(impl, Implementation):
        raise AdapterStartError(f"python:{spec} is not a conformance.adapters.base.Implementation")
    return impl
