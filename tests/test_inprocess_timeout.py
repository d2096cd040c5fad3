"""``--timeout`` bounds a request to an implementation run in process as it bounds one to an
adapter process: a call that does not return in time is answered ``errored`` and the run goes on;
after three in a row the implementation counts as hung. In the main thread an interval timer stops
the call; from another thread the call runs in a worker thread and is left running."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from conformance.adapters.base import Implementation
from conformance.adapters.inprocess import InProcessAdapter
from conformance.cli import main

RELEASE = threading.Event()
"""Set at the end of each test, so that the calls left waiting return and their threads end."""


class Hangs(Implementation):
    """``kit.echo`` of ``"hang"`` (or any request, for the class attribute ``always``) waits
    until :data:`RELEASE` is set; anything else is echoed."""

    name = "hangs"
    always = False

    def operations(self) -> list[str]:
        return ["kit.echo", "envelope.instructions"]

    def __init__(self) -> None:
        self.finished: list = []

    def run(self, op: str, input: dict, root: str | None) -> dict:
        if self.always or input.get("value") == "hang":
            RELEASE.wait()
        self.finished.append(input.get("value"))
        return {"value": input.get("value")}


class AlwaysHangs(Hangs):
    always = True


@pytest.fixture(autouse=True)
def released():
    RELEASE.clear()
    yield
    RELEASE.set()


def _in_a_thread(fn):
    """``fn()``'s value, called in a thread other than the main one."""
    got = []
    thread = threading.Thread(target=lambda: got.append(fn()))
    thread.start()
    thread.join(30)
    return got[0]


def test_a_call_that_does_not_return_in_time_is_stopped_errored_and_the_next_is_answered():
    hangs = Hangs()
    adapter = InProcessAdapter(hangs)
    adapter.start()
    started = time.monotonic()
    answer = adapter.run("kit.echo", {"value": "hang"}, root=None, timeout=0.3)
    assert time.monotonic() - started < 5
    assert answer.kind == "errored" and answer.no_answer
    assert "did not return from kit.echo within 0.3 s" in answer.message and "stopped there" in answer.message
    RELEASE.set()
    time.sleep(0.1)
    assert hangs.finished == []  # stopped inside the call: it never went on
    assert adapter.run("kit.echo", {"value": "x"}, root=None, timeout=5).output == {"value": "x"}
    assert threading.active_count() == 1 or all(t.name != "pi-conformance implementation"
                                                 for t in threading.enumerate())


def test_the_interval_timer_and_its_handler_are_put_back_after_each_call():
    def mine(signum, frame):
        pass

    previous = signal.signal(signal.SIGALRM, mine)
    try:
        adapter = InProcessAdapter(Hangs())
        adapter.start()
        assert adapter.run("kit.echo", {"value": "x"}, root=None, timeout=5).kind == "result"
        assert adapter.run("kit.echo", {"value": "hang"}, root=None, timeout=0.05).kind == "errored"
        assert signal.getsignal(signal.SIGALRM) is mine and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_a_timer_already_running_is_left_alone_and_the_call_made_in_a_thread():
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: None)
    signal.setitimer(signal.ITIMER_REAL, 60)
    try:
        adapter = InProcessAdapter(Hangs())
        adapter.start()
        answer = adapter.run("kit.echo", {"value": "hang"}, root=None, timeout=0.2)
        assert answer.kind == "errored" and "background" in answer.message
        assert 50 < signal.getitimer(signal.ITIMER_REAL)[0] <= 60
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_from_another_thread_a_late_call_is_errored_and_goes_on_in_the_background():
    hangs = Hangs()
    adapter = InProcessAdapter(hangs)
    adapter.start()
    answer = _in_a_thread(lambda: adapter.run("kit.echo", {"value": "hang"}, root=None, timeout=0.3))
    assert answer.kind == "errored" and answer.no_answer
    assert "did not return from kit.echo within 0.3 s" in answer.message and "background" in answer.message
    RELEASE.set()
    deadline = time.monotonic() + 5
    while not hangs.finished and time.monotonic() < deadline:
        time.sleep(0.01)
    assert hangs.finished == ["hang"]
    assert _in_a_thread(lambda: adapter.run("kit.echo", {"value": "x"}, root=None, timeout=5)).output == {"value": "x"}


def test_after_three_calls_in_a_row_timed_out_the_implementation_is_hung():
    adapter = InProcessAdapter(Hangs())
    adapter.start()
    for _ in range(3):
        assert adapter.run("kit.echo", {"value": "hang"}, root=None, timeout=0.1).kind == "errored"
    started = time.monotonic()
    answer = adapter.run("kit.echo", {"value": "x"}, root=None, timeout=5)
    assert answer.kind == "errored" and "hangs is hung: 3 calls in a row" in answer.message
    assert time.monotonic() - started < 1  # not made at all


def test_run_with_a_hanging_implementation_in_process_ends_with_the_cases_errored(capsys):
    code = main(["run", "--adapter", "python:tests.test_inprocess_timeout:AlwaysHangs", "--timeout", "0.2",
                 "--case", "env-instr-*", "-q"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "ERRORED env-instr-" in out and "did not return from envelope.instructions within 0.2 s" in out
    assert "hangs is hung: 3 calls in a row" in out


def test_the_worker_thread_ends_with_its_adapter_stopped_or_dropped():
    import gc

    before = threading.active_count()

    def use_and_drop():
        stopped = InProcessAdapter(Hangs())
        stopped.start()
        assert stopped.run("kit.echo", {"value": 1}, root=None, timeout=5).kind == "result"
        stopped.stop()
        for _ in range(20):  # never stopped: a test or a caller that drops it
            adapter = InProcessAdapter(Hangs())
            adapter.start()
            adapter.run("kit.echo", {"value": 1}, root=None, timeout=5)
            del adapter
        return True

    assert _in_a_thread(use_and_drop)
    gc.collect()
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threading.active_count() <= before


class RaisesInterrupt(Implementation):
    """Raises ``KeyboardInterrupt`` itself on every request: no Ctrl-C was pressed."""

    name = "raises-interrupt"

    def operations(self) -> list[str]:
        return ["kit.echo", "envelope.instructions"]

    def run(self, op: str, input: dict, root: str | None) -> dict:
        raise KeyboardInterrupt("raised by the implementation")


class CtrlC(Implementation):
    """Sends this process a SIGINT in the call, as a Ctrl-C pressed during it would."""

    name = "ctrl-c"

    def operations(self) -> list[str]:
        return ["kit.echo", "envelope.instructions"]

    def run(self, op: str, input: dict, root: str | None) -> dict:
        import os

        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
        return {}


def test_a_keyboard_interrupt_the_implementation_raises_is_its_answer_not_a_ctrl_c(capsys):
    # it ended the whole run as interrupted ('interrupted after 0 of 7 cases', exit 130)
    code = main(["run", "--adapter", "python:tests.test_inprocess_timeout:RaisesInterrupt", "--case", "env-instr-*",
                 "-q"])
    out = capsys.readouterr().out
    assert code == 1 and "ERRORED env-instr-" in out and "KeyboardInterrupt: raised by the implementation" in out
    for timeout in (5, None):  # with or without a bound, outside the command line's own handler
        adapter = InProcessAdapter(RaisesInterrupt())
        adapter.start()
        answer = adapter.run("kit.echo", {"value": 1}, root=None, timeout=timeout)
        assert answer.kind == "errored" and "KeyboardInterrupt" in answer.message
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_ctrl_c_during_a_call_in_process_still_interrupts(capsys):
    code = main(["run", "--adapter", "python:tests.test_inprocess_timeout:CtrlC", "--case", "env-instr-*", "-q"])
    assert code == 130 and "interrupted after 0 of" in capsys.readouterr().err
    adapter = InProcessAdapter(CtrlC())
    adapter.start()
    for timeout in (5, None):
        with pytest.raises(KeyboardInterrupt):
            adapter.run("kit.echo", {}, root=None, timeout=timeout)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_timeout_shorter_than_setting_the_timer_still_answers_errored():
    # at --timeout 0.0000001 the alarm rang inside setitimer, before the call's own handling,
    # and the run ended in a CallTimedOut traceback
    from tests.kit_fixtures import Echo

    adapter = InProcessAdapter(Echo())
    adapter.start()
    for _ in range(200):
        answer = adapter.run("kit.echo", {"value": 1}, root=None, timeout=1e-7)
        assert answer.kind in ("errored", "result")
        adapter._timeouts = 0  # keep making the call: the point is that none raises
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
