"""Typed errors of the reference implementation.

Every refusal that the specification defines is raised as :class:`SpecError` carrying a stable,
kebab-case ``code`` (for example ``contribution-id-blank``). Conformance cases compare the code,
never the message, so codes are part of the public contract and never change meaning.
"""

from __future__ import annotations


class SpecError(Exception):
    """A refusal defined by the specification.

    Attributes:
        code: stable kebab-case identifier of the refusal, compared by conformance cases.
        message: human-readable explanation naming the offending field or value.
        path: optional JSON-path-like location of the offending value (``"contributions[2].id"``).
    """

    def __init__(self, code: str, message: str, *, path: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.path = path
