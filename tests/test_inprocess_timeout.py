"""``--timeout`` bounds a request to an implementation run in process as it bounds one to an
adapter process: a call that does not return in time is answered ``errored`` and the run goes on;
after three in a row the implementation counts as hung."""

from __future__ import annotations

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

    def run(self, op: str, input: dict, root: str | None) -> dict:
        if self.always or input.get("value") == "hang":
            RELEASE.wait()
        return {"value": input.get("value")}


class AlwaysHangs(Hangs):
    always = True


@pytest.fixture(autouse=True)
def released():
    RELEASE.clear()
    yield
    RELEASE.set()


def test_a_call_that_does_not_return_in_time_is_errored_and_the_next_is_answered():
    adapter = InProcessAdapter(Hangs())
    adapter.start()
    started = time.monotonic()
    answer = adapter.run("kit.echo", {"value": "hang"}, root=None, timeout=0.3)
    assert time.monotonic() - started < 5
    assert answer.kind == "errored" and answer.no_answer
    assert "did not return from kit.echo within 0.3 s" in answer.message and "background" in answer.message
    assert adapter.run("kit.echo", {"value": "x"}, root=None, timeout=5).output == {"value": "x"}


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
    stopped = InProcessAdapter(Hangs())
    stopped.start()
    assert stopped.run("kit.echo", {"value": 1}, root=None, timeout=5).kind == "result"
    stopped.stop()
    for _ in range(20):  # never stopped: a test or a caller that drops it
        adapter = InProcessAdapter(Hangs())
        adapter.start()
        adapter.run("kit.echo", {"value": 1}, root=None, timeout=5)
        del adapter
    gc.collect()
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threading.active_count() <= before
