"""The out-of-process adapter protocol: JSON lines over standard input and output.

The protocol itself (messages, status mapping, timeouts, restarts, versioning) is documented in
``conformance/PROTOCOL.md``; this module holds both ends of it:

- :class:`JsonLinesAdapter`, the kit's client, an :class:`~conformance.adapters.base.Adapter`
  that runs an implementation as one long-lived child process and talks to it line by line;
- :func:`serve`, the server, which serves any in-process
  :class:`~conformance.adapters.base.Implementation` over the protocol;
  :func:`serve_reference_main` is ``pi-conformance serve-reference`` (also
  ``python -m conformance.adapters.jsonlines``).

Both ends write one JSON object per line, UTF-8, no byte order mark, and read strictly: a line that
is not one JSON object is malformed.
"""

from __future__ import annotations

import collections
import importlib
import io
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
from typing import IO, Any

from conformance import PROTOCOL_VERSION
from conformance.operations import get as get_operation
from conformance.adapters.base import (
    AdapterStartError,
    Answer,
    Hello,
    Implementation,
    ImplementationError,
    Skipped,
    Unsupported,
)

__all__ = [
    "DEFAULT_START_TIMEOUT",
    "DEFAULT_STOP_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "MAX_LINE_BYTES",
    "JsonLinesAdapter",
    "MalformedMessage",
    "decode_message",
    "encode_message",
    "parse_command",
    "serve",
    "serve_main",
    "serve_reference_main",
]

DEFAULT_TIMEOUT = 10.0
"""Seconds an adapter has to answer one ``run`` request before the case is ``errored``."""

DEFAULT_START_TIMEOUT = 30.0
"""Seconds an adapter has to answer ``start`` (process start-up included)."""

DEFAULT_STOP_TIMEOUT = 2.0
"""Seconds an adapter has to answer ``stop`` and exit before it is killed."""

MAX_LINE_BYTES = 64 * 1024 * 1024
"""Longest line either end accepts (64 MiB, newline included); a longer line is malformed."""

INLINE_WRITE_BYTES = 4096
"""Requests up to this size are written directly; longer ones through a thread (see ``send``)."""

STDERR_BUFFER_BYTES = 64 * 1024
"""How much of an adapter's standard error the client keeps (the most recent bytes)."""

STDERR_TAIL_CHARS = 4000
"""How many characters of that buffer an ``errored`` answer carries."""

ANSWER_TYPES = ("result", "error", "unsupported", "skipped", "errored")
"""Message types that answer a ``run`` request, one for each answer kind."""

PROTOCOL_UNSUPPORTED = "protocol-unsupported"
"""The ``code`` of the ``error`` with which an adapter refuses the kit's protocol version."""


# ---------------------------------------------------------------------------------------------
# Lines


class MalformedMessage(ValueError):
    """A line that is not one JSON object encoded in UTF-8."""


def _refuse_constant(name: str) -> Any:
    raise MalformedMessage(f"{name} is not JSON")


def encode_message(message: dict) -> bytes:
    """One protocol line: ``message`` as compact JSON, UTF-8, ending in ``\\n``.

    Non-ASCII characters are written as they are; a string that cannot be encoded in UTF-8 (a lone
    surrogate) makes the whole line fall back to ``\\uXXXX`` escapes, which every JSON reader
    decodes. Raises ``ValueError`` (NaN, infinity) or ``TypeError`` for values JSON cannot carry.
    """
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    return data + b"\n"


def decode_message(line: bytes) -> dict:
    """The JSON object on one protocol line (its ``\\n`` or ``\\r\\n`` end removed).

    Raises :class:`MalformedMessage` when the line is not valid UTF-8, not JSON (``NaN`` and
    ``Infinity`` included), or not an object.
    """
    if line.endswith(b"\n"):
        line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedMessage(f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except MalformedMessage:
        raise
    except ValueError as exc:
        raise MalformedMessage(f"not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise MalformedMessage(f"a JSON {type(value).__name__}, not an object")
    return value


def _excerpt(line: bytes, limit: int = 200) -> str:
    text = line.rstrip(b"\r\n").decode("utf-8", "replace")
    return text if len(text) <= limit else text[:limit] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_command(command: str) -> list[str]:
    """The argument list of an ``--adapter CMD`` string (shell-like quoting, no shell run).

    ``'node adapter.mjs --flag "a b"'`` gives ``["node", "adapter.mjs", "--flag", "a b"]``.
    Raises ``ValueError`` for an empty command or unbalanced quotes.
    """
    argv = shlex.split(command, posix=os.name != "nt")
    if not argv:
        raise ValueError("the adapter command is empty")
    return argv


# ---------------------------------------------------------------------------------------------
# Client


class _Fault(Exception):
    """The adapter process failed (crash, hang, malformed output); it must be restarted."""


class _Refused(_Fault):
    """The adapter answered ``start`` with an ``error``: it is running and can be stopped."""


_EOF = object()
_TOO_LONG = object()


class _Process:
    """One adapter child process with its two reader threads.

    Standard output is read line by line into a queue (so waiting for an answer can time out);
    standard error is drained continuously into a bounded buffer. Neither pipe can fill up and
    block the child.
    """

    def __init__(self, command: list[str], cwd: str | None, env: dict[str, str] | None) -> None:
        posix = os.name == "posix"
        self.popen = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
            start_new_session=posix,
        )
        self.lines: queue.SimpleQueue = queue.SimpleQueue()
        self._stderr = bytearray()
        self._stderr_total = 0
        self._stderr_lock = threading.Lock()
        self._out_thread = threading.Thread(target=self._read_stdout, daemon=True)
        self._err_thread = threading.Thread(target=self._read_stderr, daemon=True)
        self._out_thread.start()
        self._err_thread.start()

    def _read_stdout(self) -> None:
        stream = self.popen.stdout
        assert stream is not None
        try:
            while True:
                line = stream.readline(MAX_LINE_BYTES)
                if not line:
                    break
                if len(line) >= MAX_LINE_BYTES and not line.endswith(b"\n"):
                    self.lines.put(_TOO_LONG)
                    return
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(_EOF)

    def _read_stderr(self) -> None:
        stream = self.popen.stderr
        assert stream is not None
        try:
            while True:
                chunk = stream.read1(65536)
                if not chunk:
                    return
                with self._stderr_lock:
                    self._stderr += chunk
                    self._stderr_total += len(chunk)
                    if len(self._stderr) > STDERR_BUFFER_BYTES:
                        del self._stderr[: len(self._stderr) - STDERR_BUFFER_BYTES]
        except (OSError, ValueError):
            return

    def send(self, data: bytes, timeout: float | None = None) -> float:
        """Write one line; the seconds it took.

        A line of up to :data:`INLINE_WRITE_BYTES` is written at once: the pipe is empty between
        requests (the child read the previous line before answering it), so it cannot block. A
        longer line is written by a helper thread, so that a child that stops reading cannot block
        the kit: after ``timeout`` seconds :class:`_Fault` is raised (the caller then kills the
        child, which ends the helper). Raises ``OSError`` when the child no longer reads.
        """
        stdin = self.popen.stdin
        assert stdin is not None
        began = time.monotonic()
        if len(data) <= INLINE_WRITE_BYTES or timeout is None:
            stdin.write(data)
            stdin.flush()
            return time.monotonic() - began
        failure: list[OSError] = []

        def write() -> None:
            try:
                stdin.write(data)
                stdin.flush()
            except (OSError, ValueError) as exc:
                failure.append(exc if isinstance(exc, OSError) else OSError(str(exc)))

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        writer.join(timeout)
        if writer.is_alive():
            raise _Fault(f"the adapter did not read the request ({len(data)} bytes) within {timeout:g} s")
        if failure:
            raise failure[0]
        return time.monotonic() - began

    def receive(self, timeout: float) -> Any:
        """The next stdout line (bytes), ``_EOF``, ``_TOO_LONG``; ``queue.Empty`` on timeout."""
        return self.lines.get(timeout=max(timeout, 0.0))

    def exit_code(self, wait: float = 0.0) -> int | None:
        try:
            return self.popen.wait(wait) if wait > 0 else self.popen.poll()
        except subprocess.TimeoutExpired:
            return None

    def settle_stderr(self, quiet: float = 0.02, limit: float = 0.25) -> None:
        """Wait until standard error has been quiet for ``quiet`` s (at most ``limit`` s).

        What an adapter wrote to stderr just before an answer may not have been read yet when the
        answer arrives; this lets the tail of an ``errored`` answer include it.
        """
        deadline = time.monotonic() + limit
        with self._stderr_lock:
            size = self._stderr_total
        while time.monotonic() < deadline and self._err_thread.is_alive():
            time.sleep(quiet)
            with self._stderr_lock:
                if self._stderr_total == size:
                    return
                size = self._stderr_total

    def stderr_tail(self, wait: float = 0.0) -> str:
        """The last :data:`STDERR_TAIL_CHARS` characters of standard error, from a line start.

        ``wait``: seconds to let the stderr thread finish first (after the child has exited).
        """
        if wait > 0:
            self._err_thread.join(wait)
        with self._stderr_lock:
            data = bytes(self._stderr)
        text = data.decode("utf-8", "replace")
        if len(text) > STDERR_TAIL_CHARS:
            text = text[-STDERR_TAIL_CHARS:]
            newline = text.find("\n")
            if 0 <= newline < len(text) - 1:
                text = text[newline + 1 :]
        return text

    def close_stdin(self) -> None:
        try:
            if self.popen.stdin is not None:
                self.popen.stdin.close()
        except OSError:
            pass

    def kill(self) -> None:
        """Kill the child (its whole process group on POSIX) and wait for it."""
        if self.popen.poll() is None:
            try:
                if os.name == "posix":
                    os.killpg(self.popen.pid, signal.SIGKILL)
                else:
                    self.popen.kill()
            except (ProcessLookupError, PermissionError, OSError):
                pass
        try:
            self.popen.wait(5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process that survives SIGKILL
            pass
        self.close_stdin()


class JsonLinesAdapter:
    """The kit's client of the JSON-lines protocol: one adapter process per run.

    Args:
        command: the adapter's argument list (see :func:`parse_command` for a command string).
        cwd: working directory of the adapter process (default: the kit's).
        env: its environment (default: the kit's).
        start_timeout: seconds for the process to start and answer ``start``.
        stop_timeout: seconds for it to answer ``stop`` and exit before it is killed.
        name: how the adapter is named in messages (default: the command's first word).
        max_restart_failures: after this many failed restarts in a row, requests are answered
            ``errored`` at once instead of trying again.

    :meth:`run` never raises for the adapter's faults: a crash, a hang past the timeout, a line that
    is not one JSON object, an answer with the wrong ``seq`` or ``type``, or a malformed answer make
    the answer ``errored`` with the adapter's stderr tail; the process is then killed and the next
    request restarts it with a new handshake. Attributes: ``hello`` (the latest handshake),
    ``restarts`` (how many times the process was started again), ``stop_problem`` (what went wrong
    at the last :meth:`stop`, or ``None``).
    """

    def __init__(
        self,
        command: list[str],
        *,
        cwd: str | os.PathLike | None = None,
        env: dict[str, str] | None = None,
        start_timeout: float = DEFAULT_START_TIMEOUT,
        stop_timeout: float = DEFAULT_STOP_TIMEOUT,
        name: str | None = None,
        max_restart_failures: int = 3,
    ) -> None:
        if isinstance(command, str) or not command:
            raise ValueError("command must be a non-empty list of arguments")
        self.command = [os.fspath(part) for part in command]
        self.cwd = os.fspath(cwd) if cwd is not None else None
        self.env = env
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.name = name or os.path.basename(self.command[0])
        self.max_restart_failures = max_restart_failures
        self.hello: Hello | None = None
        self.restarts = 0
        self.stop_problem: str | None = None
        self._proc: _Process | None = None
        self._seq = 0
        self._starts = 0
        self._restart_failures = 0
        self._last_start_error = ""

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> Hello:
        """Start the adapter process and complete the handshake.

        Returns the adapter's :class:`Hello`. Raises :class:`AdapterStartError` when the command
        cannot be run, the process exits or says nothing within ``start_timeout``, answers with
        anything but a well-formed ``started`` for the kit's protocol version, or refuses the
        version with an ``error``. Calling it on a running adapter returns the current hello.
        """
        if self._proc is not None and self.hello is not None:
            return self.hello
        return self._launch()

    def _launch(self) -> Hello:
        try:
            proc = _Process(self.command, self.cwd, self.env)
        except (OSError, ValueError) as exc:
            raise AdapterStartError(f"cannot run adapter {self.command!r}: {exc}") from None
        try:
            hello = self._handshake(proc)
        except _Fault as exc:
            if isinstance(exc, _Refused):
                self._part(proc)
            proc.kill()
            tail = proc.stderr_tail(wait=0.5)
            message = f"adapter {self.name} did not start: {exc}"
            if tail.strip():
                message += f"\n--- adapter stderr (tail) ---\n{tail.rstrip()}"
            raise AdapterStartError(message) from None
        if self._starts:
            self.restarts += 1
        self._starts += 1
        self._proc = proc
        self.hello = hello
        self.stop_problem = None
        return hello

    def _part(self, proc: _Process) -> None:
        """Send ``stop`` to an adapter that refused the handshake and give it time to exit."""
        try:
            proc.send(encode_message({"type": "stop"}))
            proc.close_stdin()
        except OSError:
            return
        proc.exit_code(wait=self.stop_timeout)

    def _handshake(self, proc: _Process) -> Hello:
        try:
            proc.send(encode_message({"type": "start", "protocol": PROTOCOL_VERSION}))
        except OSError:
            pass  # the process died at once: its exit is reported below
        message = self._receive(proc, self.start_timeout, "the handshake")
        kind = message.get("type")
        if kind == "error":
            code = message.get("code")
            text = message.get("message") or ""
            protocols = message.get("protocols")
            detail = f"{code or 'error'}: {text}" if text else f"{code or 'error'}"
            if code == PROTOCOL_UNSUPPORTED or isinstance(protocols, list):
                detail += f" (the kit speaks protocol {PROTOCOL_VERSION}"
                if isinstance(protocols, list):
                    detail += f", the adapter {', '.join(map(str, protocols))}"
                detail += ")"
            raise _Refused(f"it refused the handshake: {detail}")
        if kind != "started":
            raise _Fault(f"expected a 'started' message, got {_describe(message)}")
        protocol = message.get("protocol")
        if protocol != PROTOCOL_VERSION or not _is_int(protocol):
            raise _Fault(
                f"it speaks protocol {protocol!r}, the kit speaks {PROTOCOL_VERSION}"
            )
        impl = message.get("implementation")
        if not isinstance(impl, dict):
            raise _Fault("'started' has no 'implementation' object")
        for key in ("name", "version", "language"):
            if not isinstance(impl.get(key), str) or not impl[key]:
                raise _Fault(f"'started' field 'implementation.{key}' must be a non-empty string")
        operations = message.get("operations")
        if not isinstance(operations, list) or not all(isinstance(op, str) for op in operations):
            raise _Fault("'started' field 'operations' must be a list of operation names")
        return Hello(
            name=impl["name"],
            version=impl["version"],
            language=impl["language"],
            operations=list(operations),
            protocol=protocol,
        )

    def _receive(self, proc: _Process, timeout: float, during: str, shown: float | None = None) -> dict:
        """The next message from ``proc``, or :class:`_Fault` naming what went wrong.

        ``shown``: the timeout named in the message when it is not ``timeout`` itself.
        """
        try:
            line = proc.receive(timeout)
        except queue.Empty:
            raise _Fault(f"no answer within {shown or timeout:g} s during {during}") from None
        if line is _EOF:
            code = proc.exit_code(wait=1.0)
            how = "closed its output" if code is None else f"exited with code {code}"
            raise _Fault(f"the adapter {how} during {during}")
        if line is _TOO_LONG:
            raise _Fault(f"malformed output during {during}: a line longer than {MAX_LINE_BYTES} bytes")
        if not line.endswith(b"\n"):
            raise _Fault(f"malformed output during {during}: unterminated line {_excerpt(line)!r}")
        try:
            return decode_message(line)
        except MalformedMessage as exc:
            raise _Fault(f"malformed output during {during}: {exc}: {_excerpt(line)!r}") from None

    def stop(self) -> None:
        """Send ``stop``, wait for ``stopped`` and the exit, kill the process if it lingers.

        Never raises; what went wrong (no ``stopped``, a non-zero exit, a kill) is kept in
        ``stop_problem``.
        """
        proc, self._proc = self._proc, None
        if proc is None:
            return
        problems: list[str] = []
        try:
            proc.send(encode_message({"type": "stop"}))
            deadline = time.monotonic() + self.stop_timeout
            try:
                message = self._receive(proc, self.stop_timeout, "stop")
                if message.get("type") != "stopped":
                    problems.append(f"answered stop with {_describe(message)}")
            except _Fault as exc:
                problems.append(str(exc))
            proc.close_stdin()
            code = proc.exit_code(wait=max(deadline - time.monotonic(), 0.05))
            if code is None:
                problems.append(f"did not exit within {self.stop_timeout:g} s of stop; killed")
            elif code != 0:
                problems.append(f"exited with code {code}")
        except OSError as exc:
            problems.append(f"could not be sent stop: {exc}")
        proc.kill()
        self.stop_problem = "; ".join(problems) or None

    def __enter__(self) -> "JsonLinesAdapter":
        self.start()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()

    # -- requests -----------------------------------------------------------------------------

    def _ensure_running(self) -> str | None:
        """Start (or restart) the process when needed; what went wrong, or ``None``."""
        if self._proc is not None:
            return None
        if self._restart_failures >= self.max_restart_failures:
            return (
                f"adapter {self.name} is down: {self._restart_failures} restarts failed in a row; "
                f"last: {self._last_start_error}"
            )
        try:
            self._launch()
        except AdapterStartError as exc:
            self._restart_failures += 1
            self._last_start_error = str(exc)
            again = "restarted" if self._starts else "started"
            return f"adapter {self.name} could not be {again}: {exc}"
        self._restart_failures = 0
        return None

    def run(
        self, op: str, input: dict, *, root: str | None, timeout: float = DEFAULT_TIMEOUT
    ) -> Answer:
        """Send one ``run`` request and map the answer onto an :class:`Answer`.

        ``timeout`` is in seconds. Operations the adapter did not list at the handshake are
        answered ``unsupported`` without being sent. Never raises for the adapter's faults: see
        the class docstring.
        """
        if self.hello is not None and op not in self.hello.operations:
            return Answer("unsupported", message=f"adapter {self.name} does not list operation {op}")
        problem = self._ensure_running()
        if problem is not None:
            return Answer("errored", message=problem)
        assert self.hello is not None and self._proc is not None
        if op not in self.hello.operations:
            return Answer("unsupported", message=f"adapter {self.name} does not list operation {op}")
        self._seq += 1
        seq = self._seq
        request = {"type": "run", "seq": seq, "op": op, "input": input, "root": root}
        try:
            data = encode_message(request)
        except (TypeError, ValueError) as exc:
            return Answer("errored", message=f"the case's input cannot be sent as JSON: {exc}")
        proc = self._proc
        try:
            try:
                spent = proc.send(data, timeout)
            except OSError:
                spent = 0.0  # the process is gone: reading gives its exit
            message = self._receive(proc, timeout - spent, f"{op} (seq {seq})", shown=timeout)
            return self._answer(message, seq, proc)
        except _Fault as exc:
            return self._fail(proc, str(exc))

    def _answer(self, message: dict, seq: int, proc: _Process) -> Answer:
        kind = message.get("type")
        got_seq = message.get("seq")
        if kind == "protocol-error" and (got_seq == seq or got_seq is None):
            proc.settle_stderr()
            return Answer(
                "errored",
                message=f"adapter {self.name} refused the request as malformed: "
                f"{message.get('message', '')}",
                stderr=proc.stderr_tail(),
            )
        if kind not in ANSWER_TYPES:
            raise _Fault(f"expected an answer to seq {seq}, got {_describe(message)}")
        if got_seq != seq:
            raise _Fault(f"out-of-order answer: seq {got_seq!r} where {seq} was expected")
        if kind == "result":
            if "output" not in message:
                raise _Fault(f"malformed 'result' for seq {seq}: no 'output'")
            if not isinstance(message["output"], dict):
                raise _Fault(f"malformed 'result' for seq {seq}: 'output' is not an object")
            return Answer("result", output=message["output"])
        text_key = "message" if kind in ("error", "errored") else "reason"
        text = message.get(text_key, "")
        if not isinstance(text, str):
            raise _Fault(f"malformed '{kind}' for seq {seq}: '{text_key}' is not a string")
        if kind == "error":
            code = message.get("code")
            if not isinstance(code, str) or not code:
                raise _Fault(f"malformed 'error' for seq {seq}: 'code' must be a non-empty string")
            return Answer("error", code=code, message=text)
        if kind == "errored":
            proc.settle_stderr()
            return Answer("errored", message=text, stderr=proc.stderr_tail())
        return Answer(kind, message=text)

    def _fail(self, proc: _Process, problem: str) -> Answer:
        """Kill the process after a fault; the answer is ``errored`` with the stderr tail."""
        if self._proc is proc:
            self._proc = None
        proc.kill()
        return Answer("errored", message=f"adapter {self.name}: {problem}", stderr=proc.stderr_tail(wait=0.5))

    def exchange_raw(self, line: bytes, *, timeout: float = DEFAULT_TIMEOUT) -> dict | str:
        """Send one raw line (``\\n`` added when missing) and return the next message.

        For checks of the adapter itself (``pi-conformance smoke``). Starts the adapter when it is
        not running. Returns the decoded message, or a string saying what went wrong followed by
        the last lines of the adapter's stderr (the process is then killed, and the next request
        restarts it).
        """
        problem = self._ensure_running()
        if problem is not None:
            return problem
        proc = self._proc
        assert proc is not None
        if not line.endswith(b"\n"):
            line += b"\n"
        try:
            try:
                proc.send(line)
            except OSError:
                pass
            return self._receive(proc, timeout, "a raw request")
        except _Fault as exc:
            failed = self._fail(proc, str(exc))
            tail = failed.stderr.rstrip().splitlines()[-10:]
            if tail:
                return failed.message + "\n--- adapter stderr (tail) ---\n" + "\n".join(tail)
            return failed.message


def _describe(message: dict) -> str:
    kind = message.get("type")
    text = json.dumps(message, ensure_ascii=False)
    if len(text) > 200:
        text = text[:200] + "..."
    return f"a {kind!r} message: {text}" if isinstance(kind, str) else f"a message without type: {text}"


# ---------------------------------------------------------------------------------------------
# Server


def _validation_detail(exc: Exception) -> str:
    """'input.field.sub: what is wrong; ...' for a pydantic ``ValidationError``."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return str(exc)
    parts = []
    for error in errors():
        loc = ".".join(str(part) for part in ("input", *error.get("loc", ())))
        parts.append(f"{loc}: {error.get('msg', 'invalid')}")
    return "; ".join(parts) or str(exc)


class _Server:
    """The state of one served session: started or not, the implementation's operations."""

    def __init__(self, implementation: Implementation) -> None:
        self.implementation = implementation
        self.started = False
        self.operations: set[str] = set()

    def handle(self, message: dict) -> dict:
        kind = message.get("type")
        seq = message.get("seq") if _is_int(message.get("seq")) else None
        if kind == "start":
            return self._start(message)
        if kind == "run":
            return self._run(message, seq)
        if kind == "stop":
            return {"type": "stopped"}
        if kind is None:
            return _protocol_error(seq, "the message has no 'type'")
        return _protocol_error(seq, f"unknown message type {kind!r}")

    def _start(self, message: dict) -> dict:
        protocol = message.get("protocol")
        if not _is_int(protocol):
            return _protocol_error(None, "'start' field 'protocol' must be an integer")
        if protocol != PROTOCOL_VERSION:
            return {
                "type": "error",
                "code": PROTOCOL_UNSUPPORTED,
                "message": f"this adapter speaks protocol {PROTOCOL_VERSION}, not {protocol}",
                "protocols": [PROTOCOL_VERSION],
            }
        if self.started:
            return _protocol_error(None, "the adapter has already started")
        impl = self.implementation
        try:
            self.operations = set(impl.operations())
        except Exception as exc:  # the implementation cannot say what it provides
            traceback.print_exc(file=sys.stderr)
            return {
                "type": "error",
                "code": "start-failed",
                "message": f"{impl.name}: operations() raised {type(exc).__name__}: {exc}",
            }
        self.started = True
        return {
            "type": "started",
            "protocol": PROTOCOL_VERSION,
            "implementation": {"name": impl.name, "version": impl.version, "language": impl.language},
            "operations": sorted(self.operations),
        }

    def _run(self, message: dict, seq: int | None) -> dict:
        if seq is None:
            return _protocol_error(None, "'run' field 'seq' must be an integer")
        if not self.started:
            return _protocol_error(seq, "'run' before 'start'")
        op = message.get("op")
        if not isinstance(op, str) or not op:
            return _protocol_error(seq, "'run' field 'op' must be a non-empty string")
        inp = message.get("input")
        if not isinstance(inp, dict):
            return _protocol_error(seq, "'run' field 'input' must be an object")
        root = message.get("root")
        if root is not None and not isinstance(root, str):
            return _protocol_error(seq, "'run' field 'root' must be a string or null")
        if op not in self.operations:
            return {"type": "unsupported", "seq": seq, "reason": f"{self.implementation.name} does not provide {op}"}
        declared = get_operation(op)
        if declared is not None:
            try:
                declared.input.model_validate(inp)
            except ValueError as exc:  # pydantic's ValidationError is a ValueError
                return _protocol_error(seq, f"invalid input for {op}: {_validation_detail(exc)}")
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
        if not isinstance(output, dict):
            return {
                "type": "errored",
                "seq": seq,
                "message": f"{op} returned {type(output).__name__}, not an object",
            }
        return {"type": "result", "seq": seq, "output": output}


def _protocol_error(seq: int | None, text: str) -> dict:
    return {"type": "protocol-error", "seq": seq, "message": text}


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
            return 0
        if isinstance(line, str):
            line = line.encode("utf-8", "surrogatepass")
        if len(line) >= MAX_LINE_BYTES and not line.endswith(b"\n"):
            reply = _protocol_error(None, f"a line longer than {MAX_LINE_BYTES} bytes")
            while line and not line.endswith(b"\n"):  # skip the rest of it
                line = stdin.readline(MAX_LINE_BYTES)
                if isinstance(line, str):
                    line = line.encode("utf-8", "surrogatepass")
        else:
            try:
                message = decode_message(line)
            except MalformedMessage as exc:
                reply = _protocol_error(None, f"the line is {exc}")
            else:
                reply = server.handle(message)
        try:
            data = encode_message(reply)
        except (TypeError, ValueError) as exc:
            data = encode_message(
                {"type": "errored", "seq": reply.get("seq"), "message": f"the answer is not JSON: {exc}"}
            )
        stdout.write(data.decode("utf-8") if text_out else data)
        stdout.flush()
        if reply.get("type") == "stopped":
            return 0


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
    except (BrokenPipeError, KeyboardInterrupt):
        return 1
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


def _main(argv: list[str]) -> int:
    """``python -m conformance.adapters.jsonlines [MODULE:CLASS]``: serve the reference, or the
    :class:`Implementation` subclass ``CLASS`` of module ``MODULE``."""
    if not argv:
        return serve_reference_main()
    if len(argv) != 1 or ":" not in argv[0]:
        print("usage: python -m conformance.adapters.jsonlines [MODULE:CLASS]", file=sys.stderr)
        return 2
    module_name, _, class_name = argv[0].partition(":")
    try:
        implementation = getattr(importlib.import_module(module_name), class_name)()
    except Exception as exc:
        print(f"cannot load implementation {argv[0]}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(implementation, Implementation):
        print(f"{argv[0]} is not a conformance.adapters.base.Implementation", file=sys.stderr)
        return 2
    return serve_main(implementation)


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
