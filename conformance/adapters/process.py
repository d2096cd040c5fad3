"""Supervising an adapter's child process: start it, drain its standard error, wait with a
timeout, count restarts, stop its whole process group.

Nothing here knows the protocol's messages (see :mod:`conformance.adapters.protocol`): a
:class:`ChildProcess` moves lines of bytes, :class:`Restarts` keeps the restart bookkeeping that
PROTOCOL.md describes (a failed start is retried at the next request, up to a limit in a row).
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from typing import Any, Callable

from conformance.adapters.protocol import MAX_LINE_BYTES
from conformance.output.console import at_forced_exit

__all__ = ["EOF", "TOO_LONG", "ChildFault", "ChildTimeout", "ChildProcess", "Restarts"]

INLINE_WRITE_BYTES = 4096
"""Requests up to this size are written directly; longer ones through a thread (see ``send``)."""

STDERR_BUFFER_BYTES = 64 * 1024
"""How much of an adapter's standard error the client keeps (the most recent bytes)."""

KILL_GRACE = 2.0
"""Seconds an adapter's process group has between ``SIGTERM`` and ``SIGKILL`` when it is killed: time
for a clean-up (a sandbox removed, a measured process's data saved); the wait ends as soon as the
adapter exits."""

STDERR_TAIL_CHARS = 4000
"""How many characters of that buffer an ``errored`` answer carries."""

READ_CHUNK_BYTES = 64 * 1024
"""At most this much of standard output is read at a time."""

PENDING_SHOWN_BYTES = 200
"""How much of a line not yet ended :attr:`ChildProcess.pending` keeps (to name it in a timeout)."""

EOF = object()
"""What :meth:`ChildProcess.receive` returns once standard output has ended."""

TOO_LONG = object()
"""What :meth:`ChildProcess.receive` returns for a line longer than ``MAX_LINE_BYTES``."""


_LIVE: "set[ChildProcess]" = set()
"""The adapter processes started and not yet killed (see :func:`kill_every_child`)."""
_LIVE_LOCK = threading.Lock()


def kill_every_child() -> None:
    """Kill every adapter process still running, at once (0.2 s of grace), and remove its scratch folder:
    the last thing the kit does when a signal's forced exit ends it
    (:func:`conformance.output.console.at_forced_exit`). Never raises."""
    with _LIVE_LOCK:
        children = list(_LIVE)
    for child in children:
        try:
            child.kill(grace=0.2)
        except Exception:  # noqa: BLE001 - the process is ending; nothing may stop the others' kill
            pass


at_forced_exit(kill_every_child)


class ChildFault(Exception):
    """The child process failed (crash, hang, malformed output); it must be restarted."""


class ChildTimeout(ChildFault):
    """The child did not read or answer a request within its timeout."""


class ChildProcess:
    """One adapter child process with its two reader threads.

    ``command``: the argument list; ``cwd``: its working directory (``None``: the kit's); ``env``:
    its whole environment (``None``: the kit's); ``on_exit``: called once after :meth:`kill` has
    reaped the child (removing its scratch folder). On POSIX the child leads a new session, so that
    :meth:`kill` ends whatever it started too. Raises ``OSError`` or ``ValueError`` when the
    command cannot be run.

    Standard output is read line by line into a queue (so waiting for an answer can time out);
    standard error is drained continuously into a bounded buffer. Neither pipe can fill up and
    block the child.
    """

    def __init__(self, command: list[str], cwd: str | None, env: dict[str, str] | None,
                 on_exit: Callable[[], None] | None = None) -> None:
        posix = os.name == "posix"
        self._on_exit = on_exit
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
        self.pending = b""
        """The start of a standard-output line not yet ended (at most ``PENDING_SHOWN_BYTES``)."""
        self.pending_bytes = 0
        """How long that line is so far, in bytes."""
        self._stderr = bytearray()
        self._stderr_total = 0
        self.answered_mark = 0
        """The :meth:`stderr_mark` at the last answer the client read (0: none yet, so the tail of
        the first request's answer holds what the child wrote since it started)."""
        self._stderr_lock = threading.Lock()
        self._out_thread = threading.Thread(target=self._read_stdout, daemon=True)
        self._err_thread = threading.Thread(target=self._read_stderr, daemon=True)
        self._out_thread.start()
        self._err_thread.start()
        with _LIVE_LOCK:
            _LIVE.add(self)

    def _read_stdout(self) -> None:
        """Put each line of standard output on the queue as it ends; what has come of a line not
        yet ended is :attr:`pending` meanwhile (put as it is, unended, when the output ends)."""
        stream = self.popen.stdout
        assert stream is not None
        buffer = bytearray()
        try:
            while chunk := stream.read1(READ_CHUNK_BYTES):
                start, scanned = 0, len(buffer)
                buffer += chunk
                while (end := buffer.find(b"\n", scanned)) != -1:
                    if end + 1 - start > MAX_LINE_BYTES:
                        break
                    self.lines.put(bytes(buffer[start:end + 1]))
                    start = scanned = end + 1
                del buffer[:start]
                if len(buffer) >= MAX_LINE_BYTES:
                    self.pending = b""
                    self.lines.put(TOO_LONG)
                    return
                self.pending = bytes(buffer[:PENDING_SHOWN_BYTES]) if buffer else b""
                self.pending_bytes = len(buffer)
        except (OSError, ValueError):
            pass
        if buffer:
            self.lines.put(bytes(buffer))
        self.pending, self.pending_bytes = b"", 0
        self.lines.put(EOF)

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
        the kit: after ``timeout`` seconds :class:`ChildFault` is raised (the caller then kills the
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
            raise ChildTimeout(f"the adapter did not read the request ({len(data)} bytes) within {timeout:g} s")
        if failure:
            raise failure[0]
        return time.monotonic() - began

    def receive(self, timeout: float) -> Any:
        """The next stdout line (bytes), :data:`EOF`, :data:`TOO_LONG`; ``queue.Empty`` on timeout."""
        return self.lines.get(timeout=max(timeout, 0.0))

    def exit_code(self, wait: float = 0.0) -> int | None:
        """The child's exit code, waiting up to ``wait`` seconds; ``None`` while it runs."""
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

    def stderr_mark(self) -> int:
        """How many bytes of standard error have been read so far: give it to :meth:`stderr_tail`
        as ``since`` to have only what came after."""
        with self._stderr_lock:
            return self._stderr_total

    def stderr_tail(self, wait: float = 0.0, since: int | None = None) -> str:
        """The last :data:`STDERR_TAIL_CHARS` characters of standard error, from a line start.

        ``wait``: seconds to let the stderr thread finish first (after the child has exited).
        ``since``: a :meth:`stderr_mark`; only what the child wrote after it (what it wrote while
        one request ran, not during the cases before).
        """
        if wait > 0:
            self._err_thread.join(wait)
        with self._stderr_lock:
            data = bytes(self._stderr)
            if since is not None:
                data = data[max(since - (self._stderr_total - len(data)), 0):]
        text = data.decode("utf-8", "replace")
        if len(text) > STDERR_TAIL_CHARS:
            text = text[-STDERR_TAIL_CHARS:]
            newline = text.find("\n")
            if 0 <= newline < len(text) - 1:
                text = text[newline + 1 :]
        return text

    def close_stdin(self) -> None:
        """Close the child's standard input (it sees the end of its input)."""
        try:
            if self.popen.stdin is not None:
                self.popen.stdin.close()
        except OSError:
            pass

    def kill(self, grace: float = KILL_GRACE) -> None:
        """Kill the child (its whole process group on POSIX) and wait for it.

        On POSIX the group is sent ``SIGTERM`` first, so that an adapter can remove what it made
        (the pi-node adapter's sandbox); after ``grace`` seconds, or at once when the child has
        exited, the group gets ``SIGKILL``, which also ends whatever the child left running.
        """
        if os.name == "posix":
            if self.popen.poll() is None and self._signal_group(signal.SIGTERM):
                try:
                    self.popen.wait(grace)
                except subprocess.TimeoutExpired:
                    pass
            self._signal_group(signal.SIGKILL)
        elif self.popen.poll() is None:
            try:
                self.popen.kill()
            except OSError:
                pass
        try:
            self.popen.wait(5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process that survives SIGKILL
            pass
        self.close_stdin()
        with _LIVE_LOCK:
            _LIVE.discard(self)
        on_exit, self._on_exit = self._on_exit, None
        if on_exit is not None:
            on_exit()

    def _signal_group(self, signum: int) -> bool:
        """Send ``signum`` to the child's process group; whether it was delivered."""
        try:
            os.killpg(self.popen.pid, signum)
        except (ProcessLookupError, PermissionError, OSError):
            return False
        return True


class Restarts:
    """Restart bookkeeping of one supervised adapter.

    ``limit``: after this many failed starts in a row the adapter counts as down and requests are
    answered at once instead of trying again. Attributes: ``starts`` (successful starts),
    ``restarts`` (successful starts after the first), ``failures`` (failed starts in a row),
    ``last_error``.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.starts = 0
        self.restarts = 0
        self.failures = 0
        self.last_error = ""

    def down(self, name: str) -> str | None:
        """Why adapter ``name`` is not started again, or ``None`` while another try is allowed."""
        if self.failures < self.limit:
            return None
        return f"adapter {name} is down: {self.failures} restarts failed in a row; last: {self.last_error}"

    def started(self) -> None:
        """Count a successful start."""
        if self.starts:
            self.restarts += 1
        self.starts += 1

    def failed(self, name: str, error: str) -> str:
        """Count a failed start of adapter ``name``; the message of the request's answer."""
        self.failures += 1
        self.last_error = error
        again = "restarted" if self.starts else "started"
        return f"adapter {name} could not be {again}: {error}"
