"""``pi-conformance smoke``: the checks an adapter must pass before its results count (handshake,
``kit.echo``, malformed requests, a repeat, ``stop``, locales), judging the adapter alone."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import IO, Any

from conformance.adapters.base import Adapter, AdapterStartError, Answer
from conformance.output.console import LINE_LIMIT, shown, shown_lines
from conformance.errors import ExitCode
from conformance.operations import close_names

__all__ = ["Check", "ECHO_SAMPLE", "smoke", "smoke_adapter", "smoke_main"]

ECHO_SAMPLE: Any = {
    "text": "plain, caf\u00e9, \U0001f600, line\u2028separator, tab\tand newline\n",
    "numbers": [0, -7, 2.5, -0.125, 9007199254740991],
    "flags": [True, False, None],
    "nested": {"empty list": [], "empty object": {}, "deep": [[{"k": ["v"]}]]},
}
"""The value ``echo`` sends: every JSON type, numbers exact in IEEE doubles, text beyond ASCII."""

REPEAT_SAMPLE: Any = {"repeat": ["same", "request", 2]}
"""The value ``repeat`` sends twice."""

ALIVE_SAMPLE: Any = "still there?"
"""The value sent after the malformed requests to see the adapter still answers."""

@dataclass
class Check:
    """One smoke check: its ``name``, whether it passed (``ok``) and a one-line ``detail``."""

    name: str
    ok: bool
    detail: str


def _short(value: Any, limit: int = 160) -> str:
    text = shown(json.dumps(value, ensure_ascii=False, sort_keys=True))
    return text if len(text) <= limit else text[:limit] + "..."


def _first_difference(sent: Any, got: Any, path: str = "") -> str | None:
    """Where ``got`` first differs from ``sent``, as the judge compares (type-exact: ``1`` is not
    ``true``; ``1.0`` is ``1``), said as ``at PATH: sent X, got Y``; ``None`` when they agree."""
    from conformance.judge.golden import canonical, same

    def said(a: Any, b: Any) -> str:
        return f"at {path or 'the top'}: sent {_short(a)}, got {_short(b)}"

    if isinstance(sent, dict) and isinstance(got, dict):
        for key in sorted(set(sent) | set(got)):
            if key not in got or key not in sent:
                return f"at {path}.{key}: " + ("missing" if key not in got else f"not sent, got {_short(got[key])}")
            found = _first_difference(sent[key], got[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(sent, list) and isinstance(got, list):
        if len(sent) != len(got):
            return said(sent, got)
        return next((d for i, (a, b) in enumerate(zip(sent, got)) if (d := _first_difference(a, b, f"{path}[{i}]"))), None)
    try:
        return None if same(canonical(sent), canonical(got)) else said(sent, got)
    except ValueError:
        return said(sent, got)


def _describe(answer: Answer) -> str:
    if answer.kind == "result":
        return f"result {_short(answer.output)}"
    if answer.kind == "error":
        return f"error {shown(answer.code)}: {shown(answer.message)}"
    return f"{answer.kind}: {shown(answer.message)}"


def _restarts(adapter: Adapter) -> int:
    return int(getattr(adapter, "restarts", 0))


def _check_echo(adapter: Adapter, operations: list[str], timeout: float) -> Check:
    if "kit.echo" not in operations:
        return Check(
            "echo",
            False,
            "the adapter does not list kit.echo; every adapter must provide it "
            "(input {\"value\": any JSON}, output the same object)",
        )
    answer = adapter.run("kit.echo", {"value": ECHO_SAMPLE}, root=None, timeout=timeout)
    if answer.kind != "result":
        return Check("echo", False, f"kit.echo answered {_describe(answer)}")
    where = _first_difference({"value": ECHO_SAMPLE}, answer.output)
    if where is not None:
        return Check("echo", False, f"kit.echo changed the value: {where}")
    return Check("echo", True, "kit.echo returned the value unchanged")


def _check_malformed(adapter: Adapter, timeout: float) -> Check:
    exchange = getattr(adapter, "exchange_raw", None)
    if exchange is None:
        return Check("malformed", True, "not applicable: the adapter runs in process")
    restarts = _restarts(adapter)
    probes = [
        ("a line that is not JSON", b"this is not a request", None),
        ("a run without op", b'{"type":"run","seq":0,"input":{}}', 0),
    ]
    for what, line, seq in probes:
        reply = exchange(line, timeout=timeout)
        if isinstance(reply, str):
            return Check("malformed", False, f"{what}: {reply}")
        if reply.get("type") != "protocol-error":
            return Check("malformed", False, f"{what} was answered {_short(reply)}, not a protocol-error")
        if reply.get("seq") != seq:
            return Check(
                "malformed", False, f"{what}: the protocol-error carries seq {reply.get('seq')!r}, not {seq!r}"
            )
    answer = adapter.run("kit.echo", {"value": ALIVE_SAMPLE}, root=None, timeout=timeout)
    if _restarts(adapter) != restarts or answer.kind != "result":
        return Check("malformed", False, f"after the malformed requests, kit.echo answered {_describe(answer)}")
    return Check("malformed", True, "both malformed requests got a protocol-error; the adapter kept running")


def _check_operations(operations: list[str]) -> Check:
    from conformance.operations import names

    known = names()
    unknown = [op for op in operations if op not in known]
    if not unknown:
        return Check("operations", True, f"all {len(operations)} listed operations are known to the suite")
    hints = []
    for op in unknown:
        near = close_names(op, known)
        hints.append(f"{shown(op)} (did you mean {' or '.join(near)}?)" if near else shown(op))
    return Check("operations", False, "unknown operation(s): " + ", ".join(hints))


def _check_repeat(adapter: Adapter, operations: list[str], timeout: float) -> Check:
    if "kit.echo" not in operations:
        return Check("repeat", False, "needs kit.echo, which the adapter does not list")
    first = adapter.run("kit.echo", {"value": REPEAT_SAMPLE}, root=None, timeout=timeout)
    second = adapter.run("kit.echo", {"value": REPEAT_SAMPLE}, root=None, timeout=timeout)
    if first.kind == "errored" or second.kind == "errored":
        bad = first if first.kind == "errored" else second
        return Check("repeat", False, f"kit.echo answered {_describe(bad)}")
    same = (first.kind, first.output, first.code, first.message) == (
        second.kind,
        second.output,
        second.code,
        second.message,
    )
    if not same:
        return Check(
            "repeat", False, f"two identical requests got {_describe(first)} and then {_describe(second)}"
        )
    return Check("repeat", True, "two identical requests got the same answer")


def _check_locales(check: Any) -> Check:
    try:
        changes = check.run()
    except AdapterStartError as exc:
        return Check("locales", False, f"the adapter could not start under another locale: {exc}")
    if changes:
        return Check("locales", False, "\n".join(f"{c.case_id}: {c.message}" for c in changes))
    if not check.compared:
        return Check("locales", True, f"nothing compared: the adapter declines all {len(check.cases)} collation "
                                      "case(s), so no locale dependence can be shown")
    declined = len(check.cases) - check.compared
    return Check("locales", True, f"{check.compared} collation case(s) answer the same under "
                                  f"{', '.join(check.locales)}" + (f" ({declined} declined)" if declined else ""))


def _not_running(adapter: Any) -> str:
    """Why an out-of-process ``adapter`` had no process running when the checks ended: the kit
    stopped it after a fault (a hang, malformed output) or it had exited by itself, and no later
    check started it again; or the kit sends it nothing more, as hung."""
    hung = getattr(adapter, "hung", None)
    if hung:
        return f"the kit stopped the adapter's process and sends it no more requests: {hung}"
    fault = getattr(adapter, "last_fault", None) or "a fault"
    if getattr(adapter, "last_fault_exited", False):
        return f"the adapter's process had exited during an earlier check ({fault}) and no later check started it again"
    return (f"the kit stopped the adapter's process after a fault in an earlier check ({fault}) and no later check "
            "started it again")


def smoke(adapter: Adapter, *, timeout: float = 10.0, locale_check: Any = None) -> list[Check]:
    """Run the smoke checks against ``adapter`` (not yet started) and stop it at the end.

    ``timeout``: seconds per request; ``locale_check``: a :class:`conformance.judge.locales.LocaleCheck`
    to run last (it starts adapters of its own), or ``None``. Returns the checks in this order;
    only ``handshake`` when the adapter could not start. Never raises for the adapter's faults.

    1. ``handshake`` -- the adapter starts and says who it is (nothing else runs when this
       fails); ``operations`` -- every operation it lists is one the suite knows (a misspelt name
       would otherwise make all its cases ``unsupported`` without a word);
    2. ``echo`` -- it provides the kit's trivial operation ``kit.echo`` and returns a value with
       strings, numbers, ``null``, booleans, nesting and non-ASCII text unchanged;
    3. ``malformed`` -- a line that is not JSON and a ``run`` without ``op`` are each answered
       with a ``protocol-error``, and the adapter answers the next request without a restart
       (JSON-lines adapters only: an in-process adapter cannot receive a malformed line);
    4. ``repeat`` -- the same request twice gives the same answer;
    5. ``stop`` -- it answers ``stop`` and exits with code 0 (JSON-lines adapters only);
    6. ``locales`` -- the cases of the catalogue's collation clauses give the same answers with
       the adapter started under other locales (Danish, Turkish, POSIX by default; see
       :mod:`conformance.judge.locales`). ``pi-conformance smoke`` adds it for adapters it starts
       as a process.
    """
    try:
        hello = adapter.start()
    except AdapterStartError as exc:
        return [Check("handshake", False, str(exc))]
    checks = [
        Check(
            "handshake",
            True,
            f"{shown(hello.name)} {shown(hello.version)} ({shown(hello.language)}), protocol {hello.protocol}, "
            f"{len(hello.operations)} operation(s)",
        )
    ]
    checks.append(_check_operations(hello.operations))
    try:
        checks.append(_check_echo(adapter, hello.operations, timeout))
        checks.append(_check_malformed(adapter, timeout))
        checks.append(_check_repeat(adapter, hello.operations, timeout))
    finally:
        running = getattr(adapter, "running", True)
        adapter.stop()
    if hasattr(adapter, "stop_problem"):
        problem = adapter.stop_problem if running else f"not checked: {_not_running(adapter)}"
        checks.append(Check("stop", problem is None, problem or "answered stop and exited with code 0"))
    if locale_check is not None:
        checks.append(_check_locales(locale_check))
    return checks


def smoke_adapter(adapter: Adapter, *, out: IO[str] | None = None, timeout: float = 10.0,
                  locale_check: Any = None) -> int:
    """Run :func:`smoke` (with ``locale_check``), print one line per check, and give the exit code.

    0 when every check passed, 1 when one failed, 3 when the adapter could not start.
    """
    out = out or sys.stdout
    checks = smoke(adapter, timeout=timeout, locale_check=locale_check)
    width = max(len(check.name) for check in checks)
    for check in checks:
        mark = "ok  " if check.ok else "FAIL"
        lines = shown_lines(check.detail.rstrip("\n"), LINE_LIMIT) if check.detail else [""]
        print(f"{mark} {check.name:<{width}}  {lines[0]}", file=out)
        for line in lines[1:]:
            print(f"     {'':<{width}}  {line}", file=out)
    failed = [check.name for check in checks if not check.ok]
    if len(checks) == 1 and failed:
        print("smoke: the adapter could not start", file=out)
        return ExitCode.START
    if failed:
        print(f"smoke: {len(failed)} of {len(checks)} checks failed ({', '.join(failed)})", file=out)
        return ExitCode.FAILED
    print(f"smoke: all {len(checks)} checks passed", file=out)
    return ExitCode.OK


def smoke_main(command: list[str], *, out: IO[str] | None = None, timeout: float = 10.0) -> int:
    """``pi-conformance smoke --adapter CMD`` for an adapter command line; the exit code."""
    from conformance.adapters.client import JsonLinesAdapter

    return smoke_adapter(JsonLinesAdapter(command), out=out, timeout=timeout)
