"""Hostile Python implementations of ``kit.echo`` for ``--adapter python:hostile_impls:CLASS``
and ``python-process:hostile_impls:CLASS`` (the folder of this file on ``PYTHONPATH``): each ends
or holds the process that runs it in a way a run must survive.

- ``ExitsAtOnce``: ``os._exit(0)`` at the first request (no clean-up, no report);
- ``LeavesThread``: answers right, but leaves a non-daemon thread sleeping for an hour;
- ``Sleeps``: sleeps for an hour in every call, swallowing every exception (Ctrl-C included);
- ``SleepsPolitely``: sleeps for an hour in every call, letting exceptions through;
- ``OddOperations``: lists an operation name that is not a string.
"""

import os
import threading
import time

from conformance.adapters.base import Implementation, ImplementationError


class _Echo(Implementation):
    name = "hostile"
    version = "1"

    def operations(self):
        return ["kit.echo"]

    def run(self, op, input, root):
        if input.get("value") == "refuse":
            raise ImplementationError("value-refused", "refused")
        return {"value": input.get("value")}


class ExitsAtOnce(_Echo):
    def run(self, op, input, root):
        os._exit(0)


class LeavesThread(_Echo):
    def run(self, op, input, root):
        threading.Thread(target=time.sleep, args=(3600,), name="left behind").start()
        return super().run(op, input, root)


class Sleeps(_Echo):
    def run(self, op, input, root):
        with open(os.environ["HOSTILE_MARK"], "w") as mark:  # the call has begun
            mark.write("calling")
        while True:
            try:
                time.sleep(3600)
            except BaseException:  # noqa: B036 - hostile on purpose: a signal's exception is swallowed
                continue


class SleepsPolitely(_Echo):
    def run(self, op, input, root):
        with open(os.environ["HOSTILE_MARK"], "w") as mark:
            mark.write("calling")
        time.sleep(3600)


class OddOperations(_Echo):
    def operations(self):
        return ["kit.echo", 3]


class StringOperations(_Echo):
    def operations(self):
        return "kit.echo"


class CarriageReturns(_Echo):
    """Refuses every request with a message whose lines end in CR LF, as a Windows tool writes them."""

    def run(self, op, input, root):
        raise ImplementationError("value-refused", "first line\r\nsecond line\r\n")


class DeepAnswer(_Echo):
    """Answers with a value nested 500 arrays deep: within what JSON reads, past what a writer that
    recurses survives."""

    depth = 500

    def run(self, op, input, root):
        value = []
        for _ in range(self.depth):
            value = [value]
        return {"value": value}


class DeepestAnswer(DeepAnswer):
    """Answers with a value nested 100,000 arrays deep: past what even Python's JSON encoder
    survives, so in process it must be refused before it is copied."""

    depth = 100_000
