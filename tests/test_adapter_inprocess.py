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
