"""Standard output that survives its reader going away (the run goes on; only console text is lost),
and adapter text made safe to show: every output of the kit takes adapter text through here, so
that it can neither drive the terminal nor forge a line of the kit's."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import sys
from typing import Any, Callable, Iterator, TextIO

from conformance.errors import ExitCode


SHOWN_LIMIT = 2000
"""Characters of one piece of adapter text the console shows; the rest is cut, with a count."""

LINE_LIMIT = 4 * SHOWN_LIMIT
"""Characters of one line of the kit's own that holds several pieces of adapter text (each cut
to :data:`SHOWN_LIMIT` already), beyond which it too is cut."""

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The bidirectional controls: the Arabic letter mark (U+061C), the left-to-right and
right-to-left marks (U+200E, U+200F), embeddings, overrides and their end (U+202A-U+202E), and
isolates and their end (U+2066-U+2069). Invisible, they reorder the text that follows them, so
that ``reviewer.\u202e.hsilgnE`` reads ``reviewer.English.``: the kit never shows one raw."""

_BIDI = re.compile("[" + "".join(sorted(BIDI_CONTROLS)) + "]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(char: str) -> str:
    """One character as :func:`shown` writes it."""
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if code < 0x20 or 0x7F <= code < 0xA0:
        return f"\\x{code:02x}"
    if 0xD800 <= code < 0xE000 or char in BIDI_CONTROLS or char in "\u2028\u2029":
        return f"\\u{code:04x}"
    return char


_CUT = re.compile(r"\.\.\. \([\d,]+ more characters cut\)\Z")
"""The note :func:`shown` ends a cut text with."""


def shown(text: object, limit: int = SHOWN_LIMIT) -> str:
    """Adapter-supplied ``text`` (any object, shown by ``str``) as one line the console can print
    safely: control characters (C0, DEL, C1, line breaks included), lone surrogates, line and
    paragraph separators and bidirectional controls written as ``\\n``, ``\\x1b``,
    ``\\ud800``, ...; more than ``limit`` characters cut to ``limit``, followed by
    ``... (N more characters cut)``. Backslashes are left as they are, so showing shown text
    changes nothing."""
    text = str(text)
    cut = ""
    done = _CUT.search(text)
    if len(text) > limit and not (done and done.start() <= limit):  # not a text shown already
        cut = f"... ({len(text) - limit:,} more characters cut)"
        text = text[:limit]
    if not text.isprintable():
        text = "".join(_escaped(c) if not c.isprintable() else c for c in text)  # bidi controls are not printable
    return text + cut


def bidi_escaped(text: str) -> str:
    """``text`` with each bidirectional control (:data:`BIDI_CONTROLS`) written as its ``\\uXXXX``
    escape, as :func:`shown` writes it, and nothing else changed: for a whole document of the
    kit's (a Markdown report) whose lines and layout are its own but that quotes adapter text."""
    return _BIDI.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_JSON_RAW = re.compile("[\x7f-\x9f\u2028\u2029" + "".join(sorted(BIDI_CONTROLS)) + "]")


def json_document(value: Any, indent: int | None = 2) -> str:
    """``value`` as the JSON text of a file of the kit's (a report, a history), which a person may
    read as text: UTF-8 (all ASCII escapes when a lone surrogate, which UTF-8 cannot carry, is
    anywhere in it), with each character that could drive a terminal or reorder what follows it
    (DEL, the C1 controls, U+2028, U+2029, the bidirectional controls of :data:`BIDI_CONTROLS`)
    written as its ``\\uXXXX`` escape, as JSON writes the C0 controls itself. Such a character
    can stand only within a string, so the data read back are exact. Raises ``ValueError`` (and
    ``RecursionError``) as :func:`json.dumps` does."""
    import json

    text = json.dumps(value, indent=indent, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, indent=indent)
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def shown_lines(text: object, limit: int = SHOWN_LIMIT) -> list[str]:
    """Adapter-supplied multi-line ``text`` (standard error, say) as lines: split at ``\\n`` and
    each line made safe by :func:`shown` (a ``\\r`` or other control within a line escaped)."""
    return [shown(line, limit) for line in str(text).split("\n")]


QUOTE_INDENT = "    "
"""How :func:`quoted` sets each line of adapter text off from the kit's own lines."""


def quoted(text: object, last: int | None = None, limit: int = SHOWN_LIMIT) -> str:
    """Adapter-supplied multi-line ``text`` (its standard error, say) as a block to print under a
    line of the kit's: each line made safe by :func:`shown_lines` and indented by
    :data:`QUOTE_INDENT`, so that no line of it can pass for one of the kit's own
    (``pi-conformance: ...``, a count); only the ``last`` lines when given. The one way the kit
    quotes such a block on the console."""
    lines = shown_lines(str(text).rstrip(), limit)
    return "\n".join(QUOTE_INDENT + line for line in (lines[-last:] if last else lines))


_MARKDOWN_SPECIAL = re.compile(r"[\\`*_\[\]|~]")
_MARKDOWN_LEADING = re.compile(r"(\s*)([#+\-=]|\d+(?=[.)]))")


def markdown_inline(text: object, limit: int = SHOWN_LIMIT) -> str:
    """Adapter-supplied ``text`` as one line of a Markdown document (a heading, a list item, a
    table's cell): made safe by :func:`shown`, ``&``, ``<``, ``>`` written as HTML entities (no
    tag), the characters Markdown gives a meaning anywhere in a line (backslash, backticks,
    emphasis, links and images, tables' pipes, strike-through) escaped with a backslash, and so
    is a mark that would begin a block at its start (``#``, ``+``, ``-``, ``=``, ``1.``), so that
    it reads as the text it is. The one way the kit writes adapter text into Markdown outside a
    code block (:func:`markdown_block`)."""
    text = shown(text, limit).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MARKDOWN_SPECIAL.sub(lambda m: "\\" + m.group(), text)
    return _MARKDOWN_LEADING.sub(lambda m: m.group(1) + (m.group(2) + "\\" if m.group(2)[0].isdigit() else "\\" + m.group(2)),
                                 text, count=1) if _MARKDOWN_LEADING.match(text) else text


def markdown_block(text: object, info: str = "") -> str:
    """Adapter-supplied multi-line ``text`` as a fenced code block of a Markdown document (no
    markup, no HTML inside it): each line made safe by :func:`shown_lines` (a ``\\r`` shown
    as such), fenced by more backticks than the longest run of them in the text, so that none of
    its lines closes the block; ``info``: the fence's info string (``diff``)."""
    lines = shown_lines(str(text).rstrip("\n"), 10 * LINE_LIMIT)
    longest = max((len(run) for run in re.findall("`+", "\n".join(lines))), default=0)
    fence = "`" * max(3, longest + 1)
    return "\n".join([fence + info, *lines, fence])


@functools.lru_cache(maxsize=1)
def _xml_bad() -> re.Pattern:
    """What :func:`xml_text` escapes, compiled when a report first needs it rather than by every
    run that prints its counts."""
    return re.compile("[^\u0009\u000a\u0020-\u007e\u00a0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029"
                      + "".join(sorted(BIDI_CONTROLS)) + "]")


def xml_text(text: str) -> str:
    """``text`` for an XML report (JUnit): the characters XML 1.0 cannot hold (ANSI escapes'
    ESC, other controls, lone surrogates) written as ``\\xNN`` / ``\\uNNNN``, so the report
    stays well-formed; a CR as ``\\r`` (an XML reader would turn a raw one into a line feed,
    hiding it); DEL, the C1 controls, U+2028, U+2029 and the bidirectional controls
    (:data:`BIDI_CONTROLS`) as ``\\xNN`` / ``\\uNNNN`` too, so that a JUnit reader shows them
    rather than obeys them."""
    return _xml_bad().sub(lambda m: "\\r" if m.group() == "\r" else f"\\x{ord(m.group()):02x}"
                        if ord(m.group()) < 256 else f"\\u{ord(m.group()):04x}", text)


class ClosedPipeTolerant(io.TextIOBase):
    """A text stream over ``stream`` that drops what it writes once the stream cannot take it:
    the reader has gone (``| head -1``), the device is full (``> /dev/full``) or broken, or the
    descriptor was closed before the kit started (``>&-``).

    The first failure points the file descriptor at ``/dev/null`` (so that the interpreter's own
    flush at exit cannot fail either), says so in one line through ``say`` (``name``: which
    stream) and makes later writes no-ops. ``reader_gone`` tells whether that happened;
    ``lost`` whether it was anything but a reader that left (the console's text was lost though
    nobody chose it: :func:`conformance.cli.main` then exits 2 instead of 0).
    """

    def __init__(self, stream: TextIO | None, say: Callable[[str], None] | None = None,
                 name: str = "standard output", number: int = 1) -> None:
        self._stream = stream
        self._say, self._name, self._number = say, name, number
        self.reader_gone = False
        self.lost = False
        if stream is None or _closed_descriptor(stream):
            self._silence(None)

    def write(self, text: str) -> int:
        if not self.reader_gone:
            try:
                self._stream.write(text)
            except (OSError, ValueError) as exc:
                self._silence(exc)
        return len(text)

    def flush(self) -> None:
        if not self.reader_gone:
            try:
                self._stream.flush()
            except (OSError, ValueError) as exc:
                self._silence(exc)

    def writable(self) -> bool:
        return True

    def close(self) -> None:
        """Nothing: the stream under it is not this wrapper's to flush or close (called when the
        wrapper is collected, by which time a test's captured stream may be closed)."""

    def isatty(self) -> bool:
        return not self.reader_gone and self._stream.isatty()

    def fileno(self) -> int:
        if self._stream is None:
            raise io.UnsupportedOperation("fileno")
        return self._stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._stream, "encoding", "utf-8")

    def _silence(self, exc: BaseException | None) -> None:
        self.reader_gone = True
        self.lost = not isinstance(exc, BrokenPipeError)
        fd = _descriptor(self._stream)
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            if devnull != (fd if fd is not None else self._number):
                os.dup2(devnull, fd if fd is not None else self._number)
                os.close(devnull)
        if self._say is None:
            return
        if isinstance(exc, BrokenPipeError):
            self._say(f"pi-conformance: {self._name} was closed by its reader: the rest of the console's text "
                      "is not shown; the verdicts, the reports and the exit code are kept")
        else:
            why = "it is closed" if exc is None or isinstance(exc, ValueError) else \
                (getattr(exc, "strerror", None) or str(exc))
            self._say(f"pi-conformance: {self._name} cannot be written ({why}): the console's text is lost; the "
                      "verdicts and the reports are kept, and a run that would exit 0 exits 2")


def _descriptor(stream: Any) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def _closed_descriptor(stream: Any) -> bool:
    """Whether ``stream`` is a stream over a file descriptor that is not open (``>&-``)."""
    fd = _descriptor(stream)
    if fd is None:
        return getattr(stream, "closed", False) is True
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def _say_on_stderr(line: str) -> None:
    with contextlib.suppress(Exception):
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


@contextlib.contextmanager
def tolerate_closed_stdout() -> Iterator[ClosedPipeTolerant]:
    """Replace ``sys.stdout`` by a :class:`ClosedPipeTolerant` over it (saying on standard error
    when it fails) and ``sys.stderr`` by a silent one for the duration; a descriptor of the two
    that is closed is pointed at ``/dev/null`` first, so that no file the kit opens takes its
    number."""
    originals = sys.stdout, sys.stderr
    quiet = ClosedPipeTolerant(originals[1], name="standard error", number=2)
    sys.stderr = quiet
    tolerant = ClosedPipeTolerant(originals[0], _say_on_stderr)
    sys.stdout = tolerant
    try:
        yield tolerant
    finally:
        tolerant.flush()
        quiet.flush()
        sys.stdout, sys.stderr = (stream if stream is not None else tolerant for stream in originals)


@contextlib.contextmanager
def tolerate_any_encoding() -> Iterator[None]:
    """For the duration, standard output and standard error write a character their encoding
    cannot hold (an answer's ``é`` under ``PYTHONIOENCODING=ascii``, a lone surrogate) as a
    backslash escape (``\\xe9``, ``\\ud800``) instead of raising ``UnicodeEncodeError``, so that no
    console text can cost a run its reports or its verdict; their error handling is restored at
    the end. A stream that cannot be reconfigured (not a ``TextIOWrapper``) is left as it is."""
    changed = []
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        errors = getattr(stream, "errors", None)
        if reconfigure is None or errors in ("backslashreplace", "surrogateescape", "replace", "ignore"):
            continue
        try:
            reconfigure(errors="backslashreplace")
        except (ValueError, OSError):
            continue
        changed.append((stream, errors))
    try:
        yield
    finally:
        for stream, errors in changed:
            with contextlib.suppress(ValueError, OSError, BrokenPipeError):
                stream.reconfigure(errors=errors)


class Terminated(KeyboardInterrupt):
    """A termination signal (``SIGTERM``, ``SIGHUP``) raised in the main thread like Ctrl-C, so
    that the same clean-up runs (the adapter's process group is stopped, no report is written).
    ``signum``: the signal's number."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.signum = signum


TERMINATING_SIGNALS = ("SIGTERM", "SIGHUP")
"""The signals :func:`terminate_as_interrupt` turns into :class:`Terminated`."""


FORCED_EXIT_SECONDS = 2.0
"""Seconds the kit has, after a Ctrl-C or termination signal, to stop the run in order (kill its
adapters, remove their folders, return the exit code) before :func:`terminate_as_interrupt`'s
watch ends the process itself: an implementation in process that swallows the signal's exception
(``except BaseException``) or never returns to the kit cannot keep the run going."""

_AT_FORCED_EXIT: list[Callable[[], None]] = []
_REAL_EXIT = os._exit
"""``os._exit`` as the kit found it (an implementation in process cannot replace the kit's own)."""


def at_forced_exit(callback: Callable[[], None]) -> None:
    """Have ``callback`` (which must not raise) run before the forced exit of
    :data:`FORCED_EXIT_SECONDS`: the adapters' module registers the killing of every adapter
    process still running (and the removal of its scratch folder)."""
    if callback not in _AT_FORCED_EXIT:
        _AT_FORCED_EXIT.append(callback)


def _forced_exit(signum: int) -> None:
    """End this process with 128 + ``signum`` after the callbacks of :func:`at_forced_exit`."""
    for callback in _AT_FORCED_EXIT:
        with contextlib.suppress(Exception):
            callback()
    with contextlib.suppress(Exception):
        sys.stderr.write("pi-conformance: interrupted; the implementation did not give the run back, "
                         "so the kit ended it; no report written\n")
        sys.stderr.flush()
    _REAL_EXIT(ExitCode.of_signal(signum))


def leave(code: int) -> None:
    """End the program with ``code`` once its work is done, as ``sys.exit`` would, but without
    waiting for threads an implementation in process left running (Python waits for every
    non-daemon thread before it exits, so one such thread would hold the kit for ever after its
    report was written): standard output and error are flushed, then the process ends."""
    import threading

    lingering = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    if not lingering:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    _REAL_EXIT(code)


def in_utf8_mode() -> None:
    """Start this program again in Python's UTF-8 mode (``-X utf8``, the same arguments) when its
    file system encoding is not UTF-8, and return otherwise.

    Under a locale that is not UTF-8 with the mode off (``PYTHONUTF8=0 LC_ALL=C``), Python names
    files in ASCII (or Latin-1): a case's tree holding ``café.md`` could not be written, or would
    be written in bytes no adapter reads as the scenario's name. Scenarios, goldens and file names
    are UTF-8 whatever the console, so the kit always runs in the mode; the console keeps its own
    encoding (``PYTHONIOENCODING``), and what it cannot hold is shown as escapes. Where the
    program cannot be started again, it goes on as it is."""
    if os.name != "posix" or sys.flags.utf8_mode or not sys.executable:
        return
    import codecs

    if codecs.lookup(sys.getfilesystemencoding()).name == "utf-8":
        return
    try:
        os.execv(sys.executable, [sys.executable, "-X", "utf8", *sys.orig_argv[1:]])
    except OSError:
        return


def interrupted_exit_code(exc: KeyboardInterrupt) -> int:
    """The exit code of a run cut short by ``exc``: 128 plus the signal's number, as a shell
    reports it (130 for Ctrl-C, 143 for ``SIGTERM``, 129 for ``SIGHUP``)."""
    import signal

    return ExitCode.of_signal(exc.signum if isinstance(exc, Terminated) else int(signal.SIGINT))


_RECEIVED: list[int] = []
"""The signals received under :func:`terminate_as_interrupt` so far (see :func:`raise_if_interrupted`)."""


def received(signum: int) -> bool:
    """Whether signal ``signum`` came under :func:`terminate_as_interrupt` (its handler notes each)."""
    return signum in _RECEIVED


def raise_if_interrupted() -> None:
    """Raise again the first Ctrl-C or termination signal received under
    :func:`terminate_as_interrupt`, if any: a place where Python cannot raise (a
    garbage-collection callback such as hypothesis's, a ``__del__``) swallows the exception the
    handler raised there, with "Exception ignored in ...", and the run would go on. Called
    between the requests of a long run (``invariants``, ``diff``), so that the signal still ends
    it. Raises :class:`Terminated` (``SIGTERM``, ``SIGHUP``) or ``KeyboardInterrupt`` (``SIGINT``)."""
    import signal

    if _RECEIVED:
        signum = _RECEIVED[0]
        raise KeyboardInterrupt() if signum == int(signal.SIGINT) else Terminated(signum)


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """For the duration, raise :class:`Terminated` on ``SIGTERM`` and ``SIGHUP`` instead of dying
    at once (which would leave an adapter, which leads a session of its own, running), and
    ``KeyboardInterrupt`` on ``SIGINT`` as Python does; each signal received is remembered for
    :func:`raise_if_interrupted`, and a swallowed one prints no traceback. The first signal also
    starts a watch that ends the process :data:`FORCED_EXIT_SECONDS` later unless the command has
    returned by then (:func:`at_forced_exit`). Does nothing outside
    the main thread or where a signal does not exist."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    done = threading.Event()

    def watch(signum: int) -> None:
        if not done.wait(FORCED_EXIT_SECONDS):
            _forced_exit(signum)

    def handler(signum: int, frame: object) -> None:
        if not _RECEIVED:  # the first signal starts the watch; the command's end stops it
            threading.Thread(target=watch, args=(signum,), name="pi-conformance forced exit", daemon=True).start()
        _RECEIVED.append(signum)
        raise KeyboardInterrupt() if signum == int(signal.SIGINT) else Terminated(signum)

    previous = {}
    for name in TERMINATING_SIGNALS + ("SIGINT",):
        number = getattr(signal, name, None)
        # a Ctrl-C that is ignored (a background job) or handled by someone else stays so
        if number is not None and (name != "SIGINT" or signal.getsignal(number) is signal.default_int_handler):
            previous[number] = signal.signal(number, handler)
    hook = sys.unraisablehook

    def quiet_when_interrupted(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            hook(unraisable)

    _RECEIVED.clear()
    sys.unraisablehook = quiet_when_interrupted
    try:
        yield
    finally:
        done.set()
        sys.unraisablehook = hook
        _RECEIVED.clear()
        for number, old in previous.items():
            signal.signal(number, old)
