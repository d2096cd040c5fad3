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


class _OwnBaseException(BaseException):
    pass


class RaisesBaseException(Implementation):
    """Raises a ``BaseException`` that is neither ``Exception``, ``SystemExit`` nor
    ``KeyboardInterrupt``: the value names which (``base``, ``generator-exit``, ``own``);
    ``hostile-output`` answers a mapping whose ``items()`` raises one."""

    name, version, language = "raises-base-exception", "1", "python"
    raising = {"base": BaseException, "generator-exit": GeneratorExit, "own": _OwnBaseException}

    def operations(self):
        return ["kit.echo"]

    def run(self, op, input, root):
        value = input.get("value")
        if value == "hostile-output":
            class Hostile(dict):
                def items(self):
                    raise GeneratorExit("from items()")
            return Hostile(value=1)
        raise self.raising.get(value, BaseException)(f"raised for {value}")


def test_any_base_exception_an_implementation_raises_is_its_errored_answer():
    # a bare BaseException or GeneratorExit went through _call and ended the kit with a traceback
    import signal

    adapter = InProcessAdapter(RaisesBaseException())
    adapter.start()
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL
    for timeout in (None, 5.0):  # unbounded, and under the interval timer
        for value, name in (("base", "BaseException"), ("generator-exit", "GeneratorExit"),
                            ("own", "_OwnBaseException")):
            answer = adapter.run("kit.echo", {"value": value}, root=None, timeout=timeout)
            assert answer.kind == "errored" and answer.message == f"{name}: raised for {value}", answer
        answer = adapter.run("kit.echo", {"value": "hostile-output"}, root=None, timeout=timeout)
        assert answer.kind == "errored" and "GeneratorExit: from items()" in answer.message, answer
    answers = []  # in a worker thread, as a runner driven from another thread calls it
    worker = threading.Thread(target=lambda: answers.append(adapter.run("kit.echo", {"value": "base"}, root=None,
                                                                        timeout=5.0)))
    worker.start()
    worker.join()
    assert answers[0].kind == "errored" and answers[0].message == "BaseException: raised for base"


def test_an_implementations_own_call_timed_out_is_its_errored_answer_not_a_timeout():
    from conformance.adapters.inprocess import CallTimedOut

    class RaisesTimedOut(RaisesBaseException):
        raising = {"base": CallTimedOut}

    adapter = InProcessAdapter(RaisesTimedOut())
    adapter.start()
    for timeout in (None, 5.0):
        answer = adapter.run("kit.echo", {"value": "base"}, root=None, timeout=timeout)
        assert answer.kind == "errored" and answer.message.startswith("CallTimedOut"), answer


def test_a_base_exception_from_operations_is_a_start_error():
    import pytest

    from conformance.adapters.base import AdapterStartError

    class CannotList(RaisesBaseException):
        def operations(self):
            raise GeneratorExit("listing")

    with pytest.raises(AdapterStartError, match="GeneratorExit: listing"):
        InProcessAdapter(CannotList()).start()


def test_a_run_whose_implementation_raises_base_exception_errs_its_cases_and_writes_the_report(tmp_path, capsys):
    import json

    from tests.kit_fixtures import mini_suite
    from tests.test_kit_runner import cli

    dirs = mini_suite(tmp_path)
    report = tmp_path / "be.json"
    assert cli(dirs, "run", "-q", "--adapter", "python:tests.test_adapter_inprocess:RaisesBaseException",
               "--report-json", str(report)) == 1
    assert "Traceback" not in capsys.readouterr().err
    cases = json.loads(report.read_text())["cases"]
    assert [c["status"] for c in cases] == ["errored"] * 3 and "BaseException: raised for" in cases[0]["message"]
