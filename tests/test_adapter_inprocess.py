"""conformance.adapters.inprocess: what an implementation run in process prints."""

from __future__ import annotations

import threading

from conformance.adapters.base import Implementation
from conformance.adapters.inprocess import InProcessAdapter


class _Prints(Implementation):
    name, version, language = "prints", "1", "python"

    def operations(self):
        return ["kit.echo"]

    def run(self, op, input, root):
        print("PASSED env-env-example (forged)")
        return {"value": input["value"]}


def test_an_implementations_prints_go_to_standard_error_and_the_kits_own_stay_on_standard_output(capsys):
    adapter = InProcessAdapter(_Prints())
    adapter.start()
    for timeout in (None, 5.0):  # called in this thread, with or without the interval timer
        assert adapter.run("kit.echo", {"value": 1}, root=None, timeout=timeout).output == {"value": 1}
    print("the kit's own line")
    out, err = capsys.readouterr()
    assert out == "the kit's own line\n" and err.count("PASSED env-env-example (forged)") == 2


def test_a_call_in_a_worker_thread_sends_only_its_own_prints_to_standard_error(capsys):
    adapter = InProcessAdapter(_Prints())
    adapter.start()
    answers = []
    worker = threading.Thread(target=lambda: answers.append(adapter.run("kit.echo", {"value": 2}, root=None, timeout=5.0)))
    worker.start()
    worker.join()
    print("the kit's own line")
    out, err = capsys.readouterr()
    assert answers[0].output == {"value": 2}
    assert out == "the kit's own line\n" and "forged" in err


class _IgnoresInterrupts(Implementation):
    name = "ignores-interrupts"

    def operations(self):
        import signal

        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        return ["kit.echo"]

    def run(self, op, input, root):
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        return {"value": input["value"]}


def test_an_implementation_that_ignores_signals_leaves_the_kits_handlers_in_place():
    # SIGINT set to SIG_IGN in process made every later Ctrl-C do nothing
    import signal

    def kits(signum, frame):
        raise KeyboardInterrupt

    before = {n: signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGINT, kits)
    signal.signal(signal.SIGTERM, kits)
    try:
        adapter = InProcessAdapter(_IgnoresInterrupts())
        adapter.start()
        for timeout in (None, 10.0):  # unbounded, and under the interval timer
            assert adapter.run("kit.echo", {"value": 1}, root=None, timeout=timeout).output == {"value": 1}
        assert signal.getsignal(signal.SIGINT) is kits and signal.getsignal(signal.SIGTERM) is kits
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
