"""Standard output that survives its reader going away.

``pi-conformance run ... | head -1`` closes the pipe after one line. The run must go on: every
case is still judged, the reports are still written, and the exit code still says whether the
implementation conforms. Only the console text is lost.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from typing import Iterator, TextIO


class ClosedPipeTolerant(io.TextIOBase):
    """A text stream over ``stream`` that drops what it writes once the reader has gone.

    The first ``BrokenPipeError`` points the file descriptor at ``/dev/null`` (so that the
    interpreter's own flush at exit cannot fail either) and makes later writes no-ops.
    ``reader_gone`` tells whether that happened.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.reader_gone = False

    def write(self, text: str) -> int:
        if not self.reader_gone:
            try:
                self._stream.write(text)
            except BrokenPipeError:
                self._silence()
        return len(text)

    def flush(self) -> None:
        if not self.reader_gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._silence()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return not self.reader_gone and self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._stream, "encoding", "utf-8")

    def _silence(self) -> None:
        self.reader_gone = True
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)


@contextlib.contextmanager
def tolerate_closed_stdout() -> Iterator[ClosedPipeTolerant]:
    """Replace ``sys.stdout`` by a :class:`ClosedPipeTolerant` over it for the duration."""
    original = sys.stdout
    tolerant = ClosedPipeTolerant(original)
    sys.stdout = tolerant
    try:
        yield tolerant
    finally:
        tolerant.flush()
        sys.stdout = original


class Terminated(KeyboardInterrupt):
    """A termination signal (``SIGTERM``, ``SIGHUP``) raised in the main thread like Ctrl-C, so
    that the same clean-up runs (the adapter's process group is stopped, no report is written).
    ``signum``: the signal's number."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.signum = signum


TERMINATING_SIGNALS = ("SIGTERM", "SIGHUP")
"""The signals :func:`terminate_as_interrupt` turns into :class:`Terminated`."""


def interrupted_exit_code(exc: KeyboardInterrupt) -> int:
    """The exit code of a run cut short by ``exc``: 128 plus the signal's number, as a shell
    reports it (130 for Ctrl-C, 143 for ``SIGTERM``, 129 for ``SIGHUP``)."""
    import signal

    return 128 + (exc.signum if isinstance(exc, Terminated) else int(signal.SIGINT))


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """For the duration, raise :class:`Terminated` on ``SIGTERM`` and ``SIGHUP`` instead of dying
    at once (which would leave an adapter, which leads a session of its own, running). Does
    nothing outside the main thread or where a signal does not exist."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        raise Terminated(signum)

    previous = {}
    for name in TERMINATING_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            previous[number] = signal.signal(number, handler)
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old)
