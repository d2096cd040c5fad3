"""The kit's client of the JSON-lines protocol: the protocol's messages
(:mod:`conformance.adapters.protocol`) over one supervised child process
(:mod:`conformance.adapters.process`).

:class:`JsonLinesAdapter` is an :class:`~conformance.adapters.base.Adapter` that runs an
implementation as one long-lived child process and talks to it line by line; PROTOCOL.md documents
the exchange, the status mapping, timeouts and restarts.
"""

from __future__ import annotations

import os
import queue
import time
from typing import Any

from conformance.adapters.base import MAX_TIMEOUTS, AdapterStartError, Answer, Hello
from conformance.adapters.environment import AdapterEnvironment
from conformance.output.console import quoted, shown
from conformance.adapters.process import EOF, TOO_LONG, ChildFault, ChildProcess, ChildTimeout, Restarts
from conformance.adapters.protocol import (
    DEFAULT_START_TIMEOUT,
    DEFAULT_STOP_TIMEOUT,
    DEFAULT_TIMEOUT,
    MAX_LINE_BYTES,
    MalformedMessage,
    ProtocolViolation,
    decode_message,
    describe,
    encode_message,
    excerpt,
    parse_answer,
    parse_started,
    refusal_detail,
    run_request,
    same_seq,
    start_request,
    stop_request,
)
from conformance.errors import ExitCode

__all__ = ["JsonLinesAdapter"]

_FAULTS = (ChildFault, ProtocolViolation)
"""What makes the kit kill the adapter process: it failed, or it broke the protocol."""


class _Refused(Exception):
    """The adapter answered ``start`` with an ``error``: it is running and can be stopped."""


class JsonLinesAdapter:
    """The kit's client of the JSON-lines protocol: one adapter process per run.

    Args:
        command: the adapter's argument list (see
            :func:`conformance.adapters.connect.parse_command` for a command string).
        cwd: working directory of the adapter process (default: the kit's).
        environment: how its environment is built (default: :class:`AdapterEnvironment` with
            nothing added); each start gets a fresh scratch home and temporary folder, removed
            when that process ends.
        start_timeout: seconds for the process to start and answer ``start``.
        stop_timeout: seconds for it to answer ``stop`` and exit before it is killed.
        name: how the adapter is named in messages (default: the command's first word).
        max_restart_failures: after this many failed restarts in a row, requests are answered
            ``errored`` at once instead of trying again.
        max_timeouts: after this many requests in a row that timed out (default
            :data:`MAX_TIMEOUTS`), the adapter counts as hung: the process is not restarted and
            every later request is answered ``errored`` at once, saying why.

    :meth:`run` never raises for the adapter's faults: a crash, a hang past the timeout, a line that
    is not one JSON object, an answer with the wrong ``seq`` or ``type``, or a malformed answer make
    the answer ``errored`` with the adapter's stderr tail; the process is then killed and the next
    request restarts it with a new handshake. Attributes: ``hello`` (the latest handshake),
    ``restarts`` (how many times the process was started again), ``stop_problem`` (what went wrong
    at the last :meth:`stop`, or ``None``), ``last_fault`` (the latest such fault, or ``None``)
    and ``last_fault_exited`` (whether the process had exited by itself at that fault, rather
    than being killed by the kit).
    """

    def __init__(
        self,
        command: list[str],
        *,
        cwd: str | os.PathLike | None = None,
        environment: AdapterEnvironment | None = None,
        start_timeout: float = DEFAULT_START_TIMEOUT,
        stop_timeout: float = DEFAULT_STOP_TIMEOUT,
        name: str | None = None,
        max_restart_failures: int = 3,
        max_timeouts: int = MAX_TIMEOUTS,
    ) -> None:
        if isinstance(command, str) or not command:
            raise ValueError("command must be a non-empty list of arguments")
        self.command = [os.fspath(part) for part in command]
        self.cwd = os.fspath(cwd) if cwd is not None else None
        self.environment = environment or AdapterEnvironment()
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.name = name or os.path.basename(self.command[0])
        self.hello: Hello | None = None
        self.stop_problem: str | None = None
        self.last_fault: str | None = None
        self.last_fault_exited = False
        self._proc: ChildProcess | None = None
        self._seq = 0
        self._restarts = Restarts(max_restart_failures)
        self.max_timeouts = max_timeouts
        self._timeouts: list[float] = []

    @property
    def running(self) -> bool:
        """Whether a started process is running now (``False`` after a fault killed it and no
        request has started it again)."""
        return self._proc is not None

    @property
    def restarts(self) -> int:
        """How many times the process was started again after its first start."""
        return self._restarts.restarts

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
            scratch = self.environment.open()
        except OSError as exc:
            raise AdapterStartError(f"cannot make a scratch folder for adapter {self.name}: {exc}") from None
        try:
            proc = ChildProcess(self.command, self.cwd, scratch.env, on_exit=scratch.remove)
        except (OSError, ValueError) as exc:
            scratch.remove()
            raise AdapterStartError(f"cannot run adapter {self.command!r}: {exc}") from None
        try:
            hello = self._handshake(proc)
        except (_Refused, *_FAULTS) as exc:
            if isinstance(exc, _Refused):
                self._part(proc)
            proc.kill()
            tail = proc.stderr_tail(wait=0.5)
            message = f"adapter {self.name} did not start: {exc}"
            if tail.strip():
                message += "\n--- adapter stderr (tail) ---\n" + quoted(tail)
            raise AdapterStartError(message) from None
        except BaseException:  # Ctrl-C or a termination signal before the start was answered:
            proc.kill()  # the process is not ours to stop yet, so stop() would leave it running
            raise
        self._restarts.started()
        self._proc = proc
        self.hello = hello
        self.stop_problem = None
        return hello

    def _part(self, proc: ChildProcess) -> None:
        """Send ``stop`` to an adapter that refused the handshake and give it time to exit."""
        try:
            proc.send(encode_message(stop_request()))
            proc.close_stdin()
        except OSError:
            return
        proc.exit_code(wait=self.stop_timeout)

    def _handshake(self, proc: ChildProcess) -> Hello:
        try:
            proc.send(encode_message(start_request()))
        except OSError:
            pass  # the process died at once: its exit is reported below
        message = self._receive(proc, self.start_timeout, "the handshake")
        detail = refusal_detail(message)
        if detail is not None:
            raise _Refused(f"it refused the handshake: {detail}")
        return parse_started(message)

    def _receive(self, proc: ChildProcess, timeout: float, during: str, shown: float | None = None) -> dict:
        """The next message from ``proc``; :class:`ChildFault` naming what went wrong.

        ``shown``: the timeout named in the message when it is not ``timeout`` itself.
        """
        try:
            line = proc.receive(timeout)
        except queue.Empty:
            unended = (f"; it wrote {proc.pending_bytes} bytes with no newline at their end, "
                       f"{excerpt(proc.pending, 120)!r}: each message must end with one" if proc.pending else "")
            raise ChildTimeout(f"no answer within {shown or timeout:g} s during {during}{unended}") from None
        if line is EOF:
            code = proc.exit_code(wait=1.0)
            how = "closed its output" if code is None else f"exited with code {code}"
            raise ChildFault(f"the adapter {how} during {during}")
        if line is TOO_LONG:
            raise ChildFault(f"malformed output during {during}: a line longer than {MAX_LINE_BYTES} bytes")
        if not line.endswith(b"\n"):
            raise ChildFault(f"malformed output during {during}: unterminated line {excerpt(line)!r}")
        try:
            return decode_message(line)
        except MalformedMessage as exc:
            raise ChildFault(f"malformed output during {during}: {exc}: {excerpt(line)!r}") from None

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
            self._ask_to_stop(proc, problems)
        finally:  # a Ctrl-C or signal while waiting for stopped too: the process is never left running
            proc.kill()
        self.stop_problem = "; ".join(problems) or None

    def _ask_to_stop(self, proc: ChildProcess, problems: list[str]) -> None:
        """Send ``stop``, wait for ``stopped`` and the exit; what went wrong into ``problems``."""
        try:
            proc.send(encode_message(stop_request()))
            deadline = time.monotonic() + self.stop_timeout
            try:
                message = self._receive(proc, self.stop_timeout, "stop")
                if message.get("type") != "stopped":
                    problems.append(f"answered stop with {describe(message)}")
            except ChildFault as exc:
                problems.append(str(exc))
            proc.close_stdin()
            code = proc.exit_code(wait=max(deadline - time.monotonic(), 0.05))
            if code is None:
                problems.append(f"did not exit within {self.stop_timeout:g} s of stop; killed")
            elif code != ExitCode.OK:
                problems.append(f"exited with code {code}")
        except OSError as exc:
            problems.append(f"could not be sent stop: {exc}")

    def abort(self) -> None:
        """Kill the process (its whole process group on POSIX) at once, without ``stop``; its
        scratch folder is removed. For a run cut short; never raises."""
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()

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
        down = self._restarts.down(self.name)
        if down is not None:
            return down
        try:
            self._launch()
        except AdapterStartError as exc:
            return self._restarts.failed(self.name, str(exc))
        self._restarts.failures = 0
        return None

    def run(
        self, op: str, input: dict, *, root: str | None, timeout: float = DEFAULT_TIMEOUT,
        edition: str | None = None,
    ) -> Answer:
        """Send one ``run`` request and map the answer onto an :class:`Answer`.

        ``timeout`` is in seconds; ``edition`` (the edition the case is judged by) travels as
        the request's ``edition`` field when given. Operations the adapter did not list at the handshake are
        answered ``unsupported`` without being sent. Never raises for the adapter's faults: see
        the class docstring.
        """
        if self.hello is not None and op not in self.hello.operations:
            return Answer("unsupported", message=f"adapter {self.name} does not list operation {op}")
        hung = self._hung()
        if hung is not None:
            return Answer("errored", message=hung, no_answer=True)
        problem = self._ensure_running()
        if problem is not None:
            return Answer("errored", message=problem, no_answer=True)
        assert self.hello is not None and self._proc is not None
        if op not in self.hello.operations:
            return Answer("unsupported", message=f"adapter {self.name} does not list operation {op}")
        self._seq += 1
        seq = self._seq
        try:
            data = encode_message(run_request(seq, op, input, root, edition))
        except (TypeError, ValueError) as exc:
            return Answer("errored", message=f"the case's input cannot be sent as JSON: {exc}", no_answer=True)
        proc = self._proc
        mark = proc.answered_mark  # an errored answer's tail: what came since the previous answer
        try:
            try:
                spent = proc.send(data, timeout)
            except OSError:
                spent = 0.0  # the process is gone: reading gives its exit
            message = self._receive(proc, timeout - spent, f"{op} (seq {seq})", shown=timeout)
            self._timeouts.clear()
            answer = self._answer(message, seq, proc, mark)
            proc.answered_mark = proc.stderr_mark()
            return answer
        except _FAULTS as exc:
            if isinstance(exc, ChildTimeout):
                self._timeouts.append(timeout)
            else:
                self._timeouts.clear()
            return self._fail(proc, str(exc), mark)

    @property
    def hung(self) -> str | None:
        """Why the kit sends this adapter no more requests (it is hung: see ``max_timeouts``), or
        ``None``."""
        return self._hung()

    def _hung(self) -> str | None:
        """Why no more requests are sent (``max_timeouts`` in a row timed out), or ``None``."""
        if len(self._timeouts) < self.max_timeouts:
            return None
        return (f"adapter {self.name} is hung: {len(self._timeouts)} requests in a row got no answer within "
                f"{max(self._timeouts):g} s, so the rest of this run's requests are not sent")

    def _answer(self, message: dict, seq: int, proc: ChildProcess, mark: int) -> Answer:
        got_seq = message.get("seq")
        if message.get("type") == "protocol-error" and (same_seq(got_seq, seq) or got_seq is None):
            proc.settle_stderr()
            return Answer(
                "errored",
                message=f"adapter {self.name} refused the request as malformed: "
                f"{shown(message.get('message', ''))}",
                stderr=proc.stderr_tail(since=mark),
                no_answer=True,
            )
        answer = parse_answer(message, seq)
        if answer.kind == "errored":
            proc.settle_stderr()
            return Answer("errored", message=shown(answer.message), stderr=proc.stderr_tail(since=mark))
        return answer

    def _fail(self, proc: ChildProcess, problem: str, mark: int | None = None) -> Answer:
        """Kill the process after a fault; the answer is ``errored`` with the stderr tail (from
        ``mark``, a :meth:`ChildProcess.stderr_mark`, when given: what came during the request)."""
        if self._proc is proc:
            self._proc = None
        self.last_fault, self.last_fault_exited = problem, proc.exit_code() is not None
        proc.kill()
        return Answer("errored", message=f"adapter {self.name}: {problem}", stderr=proc.stderr_tail(wait=0.5, since=mark),
                      no_answer=True)

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
        except ChildFault as exc:
            failed = self._fail(proc, str(exc))
            tail = failed.stderr.rstrip().splitlines()[-10:]
            if tail:
                return failed.message + "\n--- adapter stderr (tail) ---\n" + quoted("\n".join(tail))
            return failed.message
