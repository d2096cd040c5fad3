"""``NonObject``: a Python implementation of ``kit.echo`` returning ``None`` instead of its output
object, for ``python:non_object_impl:NonObject`` and ``python-process:non_object_impl:NonObject``
(this folder on ``PYTHONPATH``)."""

from conformance.adapters.base import Implementation


class NonObject(Implementation):
    name, version = "non-object", "1"

    def operations(self):
        return ["kit.echo"]

    def run(self, op, input, root):
        return None


class LongNumber(NonObject):
    """Answers ``kit.echo`` with an integer of 10,001 digits, past what Python converts by default."""

    def run(self, op, input, root):
        return {"value": 10 ** 10000}
