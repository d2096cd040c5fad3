"""The kit's exit codes, its usage error and the words of a validation problem, low enough for
every layer to import (it imports nothing of the kit).

Every command of ``pi-conformance`` (and ``python -m`` entry point of the kit) returns an
:class:`ExitCode`; docs/running.md tables them. A literal exit code elsewhere under conformance/
fails tests/test_exit_codes.py.
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """The exit codes of ``pi-conformance`` (docs/running.md, "Exit codes")."""

    OK = 0
    """Every case passed or failed as expected; every check passed."""
    FAILED = 1
    """A case failed, errored or passed unexpectedly (a fault survived, a MUST clause has no case...)."""
    USAGE = 2
    """A usage or suite error: a bad option, a scenario, catalogue, expectations file or golden that
    does not load, an adapter that does not stop cleanly."""
    START = 3
    """The adapter could not start."""
    CRASHED = 70
    """A run carried out in a forked child ended by an exception the command did not turn into a
    message (``EX_SOFTWARE`` of sysexits.h)."""
    HANGUP = 129
    """Interrupted by ``SIGHUP`` (128 + 1, as a shell reports it)."""
    INTERRUPTED = 130
    """Interrupted by Ctrl-C (``SIGINT``, 128 + 2)."""
    TERMINATED = 143
    """Interrupted by ``SIGTERM`` (128 + 15)."""

    @classmethod
    def of_signal(cls, signum: int) -> int:
        """The exit code of a process ended by signal ``signum``: 128 plus its number, as a shell
        reports it; the member when there is one (:attr:`HANGUP`, :attr:`INTERRUPTED`,
        :attr:`TERMINATED`), else the plain number."""
        code = _SIGNAL_BASE + signum
        return cls(code) if code in cls._value2member_map_ else code


_SIGNAL_BASE = 128
"""What a shell adds to a signal's number to report the process it ended."""


class UsageError(Exception):
    """A command-line mistake (a bad option value, a selection that selects nothing, a folder
    that cannot be written): printed as one line ``pi-conformance: MESSAGE``, exit code
    :attr:`ExitCode.USAGE`."""


_TYPE_WORDS = {
    "missing": "required field is missing",
    "extra_forbidden": "unknown field",
    "model_type": "must be OBJECT",
    "model_attributes_type": "must be OBJECT",
    "dict_type": "must be OBJECT",
    "list_type": "must be a list",
    "string_type": "must be a string",
    "int_type": "must be an integer",
    "int_from_float": "must be an integer",
    "float_type": "must be a number",
    "bool_type": "must be a boolean",
}
"""pydantic's error types whose own message names a class of the kit's models, or says in
pydantic's terms what a reader of a file or an answer reads more plainly."""


def validation_problem(error: dict, an_object: str = "an object") -> str:
    """What is wrong, in the kit's words, for one error of a pydantic ``ValidationError``
    (``exc.errors()``'s dicts, with ``type`` and ``msg``): never a model's class name ("must be
    an object", not "a valid dictionary or instance of InstructionsOutput"), and "must" where
    pydantic says "Input should". ``an_object``: what a JSON object is called (``"a mapping"`` in a
    YAML file)."""
    kind, message = error.get("type", ""), str(error.get("msg", "invalid"))
    if kind in _TYPE_WORDS:
        return _TYPE_WORDS[kind].replace("OBJECT", an_object)
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            return message[len(prefix):]
    if message.startswith("Input should"):
        return "must" + message[len("Input should"):]
    return message
