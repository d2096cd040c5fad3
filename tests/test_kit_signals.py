"""A Ctrl-C or termination signal always ends a run, even when Python swallows the exception its
handler raised (inside a garbage-collection callback, such as the one hypothesis installs)."""

from __future__ import annotations

import gc
import signal

import pytest

from conformance.cli import main
from conformance.output.console import Terminated, raise_if_interrupted, terminate_as_interrupt


def _swallowed_in_a_gc_callback(signum: int) -> None:
    """Deliver ``signum`` while a garbage-collection callback runs: the handler raises there, and
    the collector prints "Exception ignored in ..." and carries on."""

    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            gc.callbacks.remove(callback)
            signal.raise_signal(signum)
            for _ in range(3):  # the handler runs here, inside the callback
                pass

    gc.callbacks.append(callback)
    gc.collect()


@pytest.fixture
def default_sigint():
    """Ctrl-C handled as Python does by default (a test worker may ignore it)."""
    kept = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, kept)


@pytest.mark.parametrize("signum, raised", [(signal.SIGTERM, Terminated), (signal.SIGINT, KeyboardInterrupt)])
def test_a_signal_swallowed_in_a_gc_callback_is_raised_again(signum, raised, default_sigint, monkeypatch):
    import sys

    printed = []  # what would print "Exception ignored in ..." with a traceback
    monkeypatch.setattr(sys, "unraisablehook", printed.append)
    with terminate_as_interrupt():
        _swallowed_in_a_gc_callback(signum)  # the run would go on from here
        with pytest.raises(raised) as caught:
            raise_if_interrupted()
    assert getattr(caught.value, "signum", signal.SIGINT) == signum
    assert printed == []  # no traceback where a message belongs
    raise_if_interrupted()  # nothing pending once the command is over


@pytest.mark.parametrize("command", ["invariants", "diff"])
@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_invariants_and_diff_end_on_a_signal_swallowed_during_the_search(command, signum, code, default_sigint,
                                                                         monkeypatch, capsys):
    import conformance.adapters.inprocess as inprocess

    sent = []
    original = inprocess.InProcessAdapter.run

    def run(self, *args, **kwargs):
        sent.append(args[0])
        if len(sent) == 1:
            _swallowed_in_a_gc_callback(signum)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(inprocess.InProcessAdapter, "run", run)
    argv = (["invariants", "--adapter", "reference", "--invariant", "inv-env-context-*"] if command == "invariants"
            else ["diff", "--adapter", "reference", "--adapter", "reference", "--op", "pi.parse-args"])
    assert main(argv + ["--examples", "5"]) == code
    assert "interrupted" in capsys.readouterr().err
    assert len(sent) <= 2  # it ended at the next request
