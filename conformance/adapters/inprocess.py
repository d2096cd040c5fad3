"""The in-process adapter: runs a Python :class:`~conformance.adapters.base.Implementation` so that
it sees and returns exactly what it would over the JSON-lines protocol (a fresh JSON copy in, JSON
data out), each call bounded by ``--timeout``."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import queue
import signal
import sys
import threading
import traceback
import weakref
from typing import Iterator

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
    operations_problem,
)
from conformance import PROTOCOL_VERSION
from conformance.adapters.protocol import long_number, malformed_result
from conformance.judge.facets import FACETS, unknown as unknown_facets


class CallTimedOut(BaseException):
    """Raised inside a call in process when its ``--timeout`` has passed (see the module
    docstring). A ``BaseException``, so that an implementation's ``except Exception`` lets it
    through."""


class _CallerToStderr:
    """``sys.stdout`` while a call runs: what the calling thread writes goes to standard error,
    the rest to the standard output it replaced. An implementation's ``print`` then never lands
    among the kit's own lines (a forged ``PASSED`` or results table), as with one served as a
    process (:func:`conformance.adapters.server.serve_main`)."""

    def __init__(self, replaced, caller: threading.Thread) -> None:
        self.replaced, self.caller = replaced, caller

    def _target(self):
        return sys.stderr if threading.current_thread() is self.caller else self.replaced

    def write(self, text: str) -> int:
        return self._target().write(text)

    def flush(self) -> None:
        self._target().flush()

    def __getattr__(self, name: str):
        return getattr(self._target(), name)


@contextlib.contextmanager
def _kits_state_kept() -> Iterator[None]:
    """What the kit's own code needs of the process, as it was before the block, whatever the
    implementation called in it does: the standard streams (``sys.stdout = None`` silenced the
    kit's console for the rest of the run), the recursion limit (``sys.setrecursionlimit(60)``
    ended the run in a RecursionError traceback), and a working folder, when the implementation
    removed the one it moved to (the kit's messages name files relative to it)."""
    streams = sys.stdin, sys.stdout, sys.stderr
    limit = sys.getrecursionlimit()
    try:
        before = os.getcwd()
    except OSError:
        before = None
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
        if sys.getrecursionlimit() != limit:
            sys.setrecursionlimit(limit)
        try:
            os.getcwd()
        except OSError:
            with contextlib.suppress(OSError, TypeError):
                os.chdir(before)


@contextlib.contextmanager
def _prints_to_stderr() -> Iterator[None]:
    """The calling thread's writes to ``sys.stdout`` go to standard error while the block runs."""
    replaced = sys.stdout
    router = _CallerToStderr(replaced, threading.current_thread())
    sys.stdout = router
    try:
        yield
    finally:
        if sys.stdout is router:  # unless something replaced it meanwhile
            sys.stdout = replaced


class _Interrupts:
    """Tells a Ctrl-C from a ``KeyboardInterrupt`` an implementation raises itself: while a call
    runs in the main thread under Python's own ``SIGINT`` handler, a handler that notes the
    signal (then raises as Python's does) takes its place; under the kit's command line, whose
    handler notes signals already (:func:`conformance.output.console.received`), that note
    is read. A call in a worker thread never gets the signal's exception."""

    def __init__(self) -> None:
        self.seen = False

    def signalled(self) -> bool:
        """Whether a Ctrl-C or a termination signal (``SIGTERM``, ``SIGHUP``) came."""
        from conformance.output.console import TERMINATING_SIGNALS, received

        return self.seen or any(received(getattr(signal, name, -1)) for name in ("SIGINT", *TERMINATING_SIGNALS))

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        """For one call: the noting handler, where it can be put (the main thread, under Python's
        own handler)."""
        if threading.current_thread() is not threading.main_thread() \
                or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            yield
            return

        def noted(signum: int, frame: object) -> None:
            self.seen = True
            raise KeyboardInterrupt()

        signal.signal(signal.SIGINT, noted)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)


@contextlib.contextmanager
def _signal_handlers_kept() -> Iterator[None]:
    """For one call in the main thread: the kit's handlers of Ctrl-C and the termination signals
    are put back afterwards if the implementation replaced them (``SIG_IGN`` would make every
    later Ctrl-C do nothing). A signal that comes during the call is the implementation's to
    handle; the next one, once the call returned, stops the run."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    from conformance.output.console import TERMINATING_SIGNALS

    numbers = [getattr(signal, name) for name in ("SIGINT", *TERMINATING_SIGNALS) if hasattr(signal, name)]
    kept = {number: signal.getsignal(number) for number in numbers}
    try:
        yield
    finally:
        for number, handler in kept.items():
            if handler is not None and signal.getsignal(number) is not handler:
                signal.signal(number, handler)


def _alarm_usable() -> bool:
    """Whether a call can be bounded by ``SIGALRM``: in the main thread, where the signal exists
    and no interval timer runs already (pytest-timeout's, say, which is left alone)."""
    return (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
            and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0))


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


_EXIT_LOCK = threading.Lock()
_CALLS_UNDER_GUARD = [0]
_KITS_EXIT = os._exit


def _refused_exit(code: int = 0) -> None:
    """``os._exit`` while an implementation runs in process: raises ``SystemExit`` (the case's
    errored answer) instead of ending the kit, whose exit code and report an ``os._exit(0)`` would
    otherwise fake."""
    raise SystemExit(f"os._exit({code!r}) called: an implementation in process cannot end the kit "
                     "(run it as python-process:MODULE:CLASS to let it end its own process)")


@contextlib.contextmanager
def _exit_refused() -> Iterator[None]:
    """For one call of an implementation (in any thread): ``os._exit`` is :func:`_refused_exit`."""
    with _EXIT_LOCK:
        _CALLS_UNDER_GUARD[0] += 1
        os._exit = _refused_exit
    try:
        yield
    finally:
        with _EXIT_LOCK:
            _CALLS_UNDER_GUARD[0] -= 1
            if not _CALLS_UNDER_GUARD[0]:
                os._exit = _KITS_EXIT


def _text_of(exc: BaseException) -> str:
    """``str(exc)``, or what it is when its ``__str__`` raises (an implementation's own exception)."""
    try:
        return str(exc)
    except Exception as inner:
        return f"(its text could not be read: {type(inner).__name__})"


def _traceback_of(exc: BaseException) -> str:
    """The last 4,000 characters of ``exc``'s traceback, or ``""`` when it cannot be formatted."""
    try:
        return "".join(traceback.format_exception(exc))[-4000:]
    except Exception:
        return ""


class InProcessAdapter:
    """Adapter over an :class:`Implementation` instance living in this process."""

    def __init__(self, implementation: Implementation) -> None:
        self.implementation = implementation
        self._ops: set[str] = set()
        self._timeouts = 0  # calls in a row that did not return within their timeout
        self._worker: _Worker | None = None  # made at the first request
        self._interrupts = _Interrupts()
        self._alarm_rang = False  # whether this call's interval timer raised CallTimedOut

    def start(self) -> Hello:
        try:
            with _signal_handlers_kept():
                ops = self.implementation.operations()
        except BaseException as exc:  # the implementation's own fault, unless the kit's stop
            if self._kits_own(exc):
                raise
            raise AdapterStartError(f"{type(self.implementation).__name__}.operations() failed: "
                                    f"{type(exc).__name__}: {exc}") from exc
        problem = operations_problem(self.implementation, ops)
        if problem is not None:
            raise AdapterStartError(problem)
        self._ops = set(ops)
        impl = self.implementation
        gives = tuple(getattr(impl, "gives", ()) or ())
        bad = unknown_facets(gives)
        if bad:
            raise AdapterStartError(f"{type(impl).__name__}.gives names no facet: {', '.join(bad)} "
                                    f"(the facets: {', '.join(FACETS)})")
        for field in ("name", "version", "language"):  # as the served handshake's schema asks
            value = getattr(impl, field, None)
            if not isinstance(value, str) or not value:
                raise AdapterStartError(f"{type(impl).__name__}.{field} must be a non-empty string, not {value!r}")
        return Hello(name=impl.name, version=impl.version, language=impl.language,
                     operations=sorted(self._ops), protocol=PROTOCOL_VERSION, gives=gives)

    def run(self, op: str, input: dict, *, root: str | None, timeout: float | None,
            edition: str | None = None) -> Answer:
        """Call the implementation on one request, bounded by ``timeout`` seconds (``None``:
        without a bound) as ``--timeout`` bounds a request to an adapter process. Never raises for
        the implementation's faults.

        In the main thread (the CLI, the pytest plugin) an interval timer (``SIGALRM``) raises
        :class:`CallTimedOut` inside a call still running at the timeout, which stops it there:
        the case is answered ``errored`` (the implementation gave no answer) and the run goes on.
        Elsewhere (a runner driven from another thread, or with the interval timer already in use)
        the call runs in a worker thread of the adapter and the kit waits for it at most the
        timeout; Python cannot stop a thread, so such a call goes on in the background until it
        returns or the kit exits. After :data:`MAX_TIMEOUTS` calls in a row timed out the
        implementation counts as hung, as an adapter process does, and the remaining requests are
        answered ``errored`` without being made. An implementation that catches ``BaseException``
        can keep its call from being stopped; to have a hung call killed whatever it does, serve
        it as a process (``python -m conformance.adapters.server MODULE:CLASS``)."""
        if op not in self._ops:
            return Answer("unsupported", message=f"{self.implementation.name} does not provide {op}")
        name = self.implementation.name
        if self._timeouts >= MAX_TIMEOUTS:
            return Answer("errored", no_answer=True,
                          message=f"{name} is hung: {self._timeouts} calls in a row did not return within their "
                                  "timeout, so the rest of this run's requests are not made")
        alarmed = timeout is not None and _alarm_usable()
        if timeout is None or alarmed:
            with _signal_handlers_kept(), self._interrupts.watching():
                answer = (self._call(op, input, root, edition) if timeout is None
                          else self._alarmed(op, input, root, edition, timeout))
        else:
            answer = self._threaded(op, input, root, edition, timeout)
        from conformance.output.console import raise_if_interrupted

        raise_if_interrupted()  # a signal the implementation swallowed still ends the run
        if answer is not None:
            self._timeouts = 0
            return answer
        self._timeouts += 1
        if alarmed:
            what = "the call was stopped there"
        else:  # the worker ends once the call returns; the next request gets a new one
            self._worker.jobs.put(None)
            self._worker = None
            what = "the call goes on in the background until it returns or the kit exits, as a call in " \
                   "another thread cannot be stopped"
        return Answer("errored", no_answer=True,
                      message=f"{name} did not return from {op} within {timeout:g} s (--timeout); {what}")

    def _alarmed(self, op: str, input: dict, root: str | None, edition: str | None,
                 timeout: float) -> Answer | None:
        """The call made in this (the main) thread under an interval timer that raises
        :class:`CallTimedOut` inside it at ``timeout`` seconds; ``None`` when it did."""
        calling = [True]

        def on_alarm(signum: int, frame: object) -> None:
            if calling[0]:  # never after the call has returned
                calling[0] = False
                self._alarm_rang = True
                raise CallTimedOut()

        self._alarm_rang = False

        previous = signal.signal(signal.SIGALRM, on_alarm)
        try:
            signal.setitimer(signal.ITIMER_REAL, max(timeout, 1e-6))  # may ring before it returns
            answer = self._call(op, input, root, edition)
            calling[0] = False
            return answer
        except CallTimedOut:
            return None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def _threaded(self, op: str, input: dict, root: str | None, edition: str | None,
                  timeout: float) -> Answer | None:
        """The call made in the adapter's worker thread, waited for at most ``timeout`` seconds;
        ``None`` when it has not returned by then (the worker is left to it)."""
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
        return answered[0] if answered else None

    def _call(self, op: str, input: dict, root: str | None, edition: str | None) -> Answer:
        """The implementation's answer to one request (run in the request's thread)."""
        self.implementation.edition = edition
        try:
            with _kits_state_kept(), _exit_refused(), _prints_to_stderr():
                output = self.implementation.run(op, json.loads(json.dumps(input)), root)
        except ImplementationError as exc:
            return Answer.error(exc.code, exc.message)
        except Unsupported as exc:
            return Answer("unsupported", message=str(exc))
        except Skipped as exc:
            return Answer("skipped", message=str(exc))
        except BaseException as exc:
            # Any BaseException: an implementation that calls sys.exit() or raises GeneratorExit or
            # a bare BaseException has failed this case; it must never end the run (and never with
            # the exit code it chose). Only the kit's own stops pass (see _kits_own).
            if self._kits_own(exc):
                raise
            return Answer("errored", message=f"{type(exc).__name__}: {_text_of(exc)}", stderr=_traceback_of(exc))
        try:
            with _kits_state_kept():  # a hostile dict or list runs its own code here
                malformed = malformed_result(op, output)
                if malformed is not None:
                    return Answer("errored", message=malformed, no_answer=True)
                return Answer.result(json.loads(json.dumps(output, allow_nan=False)))
        except (TypeError, ValueError) as exc:
            long = long_number(output)
            return Answer("errored", message=f"output holds {long}" if long else f"output is not JSON data: {exc}",
                          no_answer=True)
        except BaseException as exc:  # a mapping whose items() raises, a RecursionError of its own
            if self._kits_own(exc):
                raise
            return Answer("errored", message=f"output is not JSON data: reading it raised {type(exc).__name__}: {_text_of(exc)}",
                          no_answer=True)

    def _kits_own(self, exc: BaseException) -> bool:
        """Whether ``exc``, raised during a call, is the kit's own stop rather than the
        implementation's fault: the interval timer's :class:`CallTimedOut`, or a
        ``KeyboardInterrupt`` (:class:`~conformance.output.console.Terminated` included) while a
        Ctrl-C or termination signal came. Any other ``BaseException`` is the implementation's."""
        if isinstance(exc, CallTimedOut):
            return self._alarm_rang
        return isinstance(exc, KeyboardInterrupt) and self._interrupts.signalled()

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
