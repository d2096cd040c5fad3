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
