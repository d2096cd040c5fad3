"""The JSON-lines protocol's messages as types (documented in ``conformance/PROTOCOL.md``): write one
line, read one line, check a message. Pure: no process, no I/O. Both ends use it, the kit's client
and the server of an implementation."""

from __future__ import annotations

import json
import sys
from typing import Any

from conformance import PROTOCOL_VERSION
from conformance.adapters.base import Answer, Hello, too_deep
from conformance.judge.facets import FACETS, unknown as unknown_facets

__all__ = [
    "ANSWER_TYPES",
    "DEFAULT_START_TIMEOUT",
    "DEFAULT_STOP_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "MAX_LINE_BYTES",
    "PROTOCOL_UNSUPPORTED",
    "MalformedMessage",
    "ProtocolViolation",
    "decode_message",
    "describe",
    "encode_message",
    "excerpt",
    "is_int",
    "parse_answer",
    "parse_started",
    "protocol_error",
    "refusal_detail",
    "run_request",
    "start_request",
    "stop_request",
]

DEFAULT_TIMEOUT = 10.0
"""Seconds an adapter has to answer one ``run`` request before the case is ``errored``."""

DEFAULT_START_TIMEOUT = 30.0
"""Seconds an adapter has to answer ``start`` (process start-up included)."""

DEFAULT_STOP_TIMEOUT = 2.0
"""Seconds an adapter has to answer ``stop`` and exit before it is killed."""

MAX_LINE_BYTES = 64 * 1024 * 1024
"""Longest line either end accepts (64 MiB, newline included); a longer line is malformed."""

ANSWER_TYPES = ("result", "error", "unsupported", "skipped", "errored")
"""Message types that answer a ``run`` request, one for each answer kind."""

PROTOCOL_UNSUPPORTED = "protocol-unsupported"
"""The ``code`` of the ``error`` with which an adapter refuses the kit's protocol version."""


class MalformedMessage(ValueError):
    """A line that is not one JSON object encoded in UTF-8."""


class ProtocolViolation(Exception):
    """A well-formed line whose message breaks the protocol (wrong type, seq or fields)."""


# ---------------------------------------------------------------------------------------------
# Lines


def _refuse_constant(name: str) -> Any:
    raise MalformedMessage(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    """One JSON object's members as a dict; :class:`MalformedMessage` when a key appears twice
    (JSON readers differ on which value counts, so no reader can tell which the writer meant)."""
    obj = dict(pairs)
    if len(obj) < len(pairs):
        from conformance.output.console import shown

        seen: set[str] = set()
        key = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise MalformedMessage(f"the key {shown(json.dumps(key, ensure_ascii=False), 80)} twice in one object")
    return obj


def digits_limit() -> int:
    """The most digits a number may have for the kit to read or write it: Python's own limit on
    integer conversion (4,300 by default, ``PYTHONINTMAXSTRDIGITS``); 0 for none."""
    return sys.get_int_max_str_digits()


def long_number_problem(digits: int) -> str:
    """What is wrong with a number of ``digits`` digits, past :func:`digits_limit`, in the kit's words."""
    return f"a number {digits} digits long, past the kit's limit of {digits_limit()} digits for a number"


def long_number(value: Any) -> str | None:
    """:func:`long_number_problem` for the first integer in ``value`` (JSON data, nested within
    the answer bound) too long to write, or ``None`` when there is none."""
    limit = digits_limit()
    stack = [value]
    while stack and limit:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, int) and item.bit_length() > limit * 3:  # 3 bits hold less than a digit
            size = abs(item)
            digits = int(size.bit_length() * 0.30102999566398120)  # never more than the digits
            while size >= 10 ** digits:
                digits += 1
            if digits > limit:
                return long_number_problem(digits)
    return None


def _int_within_limit(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits_limit() and digits > digits_limit():
        raise MalformedMessage(long_number_problem(digits))
    return int(text)


def encode_message(message: dict) -> bytes:
    """One protocol line: ``message`` as compact JSON, UTF-8, ending in ``\\n``.

    Non-ASCII characters are written as they are; a string that cannot be encoded in UTF-8 (a lone
    surrogate) makes the whole line fall back to ``\\uXXXX`` escapes, which every JSON reader
    decodes. Raises ``ValueError`` (NaN, infinity) or ``TypeError`` for values JSON cannot carry.
    """
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    return data + b"\n"


def decode_message(line: bytes) -> dict:
    """The JSON object on one protocol line (its ``\\n`` or ``\\r\\n`` end removed).

    Raises :class:`MalformedMessage` when the line is not valid UTF-8, not JSON (``NaN`` and
    ``Infinity`` included), not an object, or holds an object (at any depth) that names one key
    twice (PROTOCOL.md, "Lines").
    """
    if line.endswith(b"\n"):
        line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedMessage(f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        value = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
    except MalformedMessage:
        raise
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # read again to say so in the kit's words
            json.loads(text, parse_constant=_refuse_constant, parse_int=_int_within_limit)
        raise MalformedMessage(f"not JSON ({exc})") from None
    except RecursionError:
        raise MalformedMessage("JSON nested too deeply to read") from None
    if not isinstance(value, dict):
        raise MalformedMessage(f"{json_kind(value)}, not an object")
    return value


def json_kind(value: object) -> str:
    """What ``value`` is, in JSON's words: ``null``, ``a boolean``, ``a number``, ``a string``,
    ``an array``, ``an object``; ``a Python NAME (not JSON data)`` for anything else."""
    if value is None:
        return "null"
    for kinds, name in ((bool, "a boolean"), ((int, float), "a number"), (str, "a string"),
                        ((list, tuple), "an array"), (dict, "an object")):
        if isinstance(value, kinds):
            return name
    return f"a Python {type(value).__name__} (not JSON data)"


def malformed_result(op: str, output: object) -> str | None:
    """Why a result whose output is ``output`` is malformed (PROTOCOL.md: ``output`` is the
    operation's output object), in the words every adapter's answer is judged by; ``None`` when
    it is an object within the nesting bound (:func:`conformance.adapters.base.too_deep`: deeper
    could not be copied or encoded without a RecursionError). The case of such an answer is
    ``errored``, as an adapter's error."""
    if isinstance(output, dict):
        return too_deep(output)
    return f"malformed 'result': {op} returned {json_kind(output)}, not an object"


def excerpt(line: bytes, limit: int = 200) -> str:
    """The start of a raw line as text (at most ``limit`` characters), for messages."""
    text = line.rstrip(b"\r\n").decode("utf-8", "replace")
    return text if len(text) <= limit else text[:limit] + "..."


def is_int(value: Any) -> bool:
    """Whether ``value`` is a JSON integer (``True`` and ``False`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def describe(message: dict) -> str:
    """``a 'type' message: {...}`` (at most 200 characters of JSON, made safe to show by
    :func:`conformance.output.console.shown`), for messages."""
    kind = message.get("type")
    from conformance.output.console import shown

    text = shown(json.dumps(message, ensure_ascii=False), 200)
    return f"a {kind!r} message: {text}" if isinstance(kind, str) else f"a message without type: {text}"


# ---------------------------------------------------------------------------------------------
# The kit's requests


def start_request() -> dict:
    """The ``start`` message for the kit's protocol version."""
    return {"type": "start", "protocol": PROTOCOL_VERSION}


def run_request(seq: int, op: str, input: dict, root: str | None, edition: str | None = None) -> dict:
    """The ``run`` message for request number ``seq``; ``edition`` (the edition of the
    specification the case is judged by, e.g. ``pi-1.6.0``) is sent when given."""
    message = {"type": "run", "seq": seq, "op": op, "input": input, "root": root}
    if edition is not None:
        message["edition"] = edition
    return message


def stop_request() -> dict:
    """The ``stop`` message."""
    return {"type": "stop"}


def protocol_error(seq: int | None, text: str) -> dict:
    """The ``protocol-error`` an adapter writes for a malformed request."""
    return {"type": "protocol-error", "seq": seq, "message": text}


# ---------------------------------------------------------------------------------------------
# The adapter's answers


def refusal_detail(message: dict) -> str | None:
    """What an ``error`` answer to ``start`` says (code, text, the adapter's protocols), or
    ``None`` when ``message`` is not an ``error``."""
    if message.get("type") != "error":
        return None
    from conformance.output.console import shown  # the adapter's own text, escaped (a refusal is shown raw nowhere)

    code = message.get("code")
    text = message.get("message") or ""
    protocols = message.get("protocols")
    detail = f"{shown(code or 'error')}: {shown(text)}" if text else shown(code or "error")
    if code == PROTOCOL_UNSUPPORTED or isinstance(protocols, list):
        detail += f" (the kit speaks protocol {PROTOCOL_VERSION}"
        if isinstance(protocols, list):
            detail += f", the adapter {shown(', '.join(map(str, protocols)))}"
        detail += ")"
    return detail


def parse_started(message: dict) -> Hello:
    """The :class:`Hello` of a ``started`` message.

    Raises :class:`ProtocolViolation` for another type, another protocol version, or a missing or
    ill-typed ``implementation`` (``name``, ``version``, ``language``: non-empty strings) or
    ``operations`` (a list of strings).
    """
    if message.get("type") != "started":
        raise ProtocolViolation(f"expected a 'started' message, got {describe(message)}")
    protocol = message.get("protocol")
    if protocol != PROTOCOL_VERSION or not is_int(protocol):
        raise ProtocolViolation(f"it speaks protocol {protocol!r}, the kit speaks {PROTOCOL_VERSION}")
    impl = message.get("implementation")
    if not isinstance(impl, dict):
        raise ProtocolViolation("'started' has no 'implementation' object")
    for key in ("name", "version", "language"):
        if not isinstance(impl.get(key), str) or not impl[key]:
            raise ProtocolViolation(f"'started' field 'implementation.{key}' must be a non-empty string")
    operations = message.get("operations")
    if not isinstance(operations, list) or not all(isinstance(op, str) for op in operations):
        raise ProtocolViolation("'started' field 'operations' must be a list of operation names")
    gives = message.get("gives", [])
    if not isinstance(gives, list) or not all(isinstance(g, str) for g in gives):
        raise ProtocolViolation("'started' field 'gives' must be a list of facet names")
    bad = unknown_facets(gives)
    if bad:
        raise ProtocolViolation(f"'started' field 'gives' names no facet: {', '.join(bad)} "
                                f"(the facets: {', '.join(FACETS)})")
    return Hello(name=impl["name"], version=impl["version"], language=impl["language"],
                 operations=list(operations), protocol=protocol, gives=tuple(gives))


def same_seq(got: object, seq: int) -> bool:
    """Whether an answer's ``seq`` is the integer ``seq``: JSON's ``true`` or ``1.0`` is not ``1``
    (PROTOCOL.md: ``seq`` is an integer), as the kit's own server holds its requests to it."""
    return type(got) is int and got == seq


def parse_answer(message: dict, seq: int) -> Answer:
    """The :class:`Answer` of a message answering ``run`` request ``seq`` (without stderr).

    Raises :class:`ProtocolViolation` when the message is not an answer, answers another ``seq``,
    or lacks a field its type needs (``output`` object, ``code`` string, ``message``/``reason``
    string).
    """
    kind = message.get("type")
    got_seq = message.get("seq")
    if kind not in ANSWER_TYPES:
        raise ProtocolViolation(f"expected an answer to seq {seq}, got {describe(message)}")
    if not same_seq(got_seq, seq):
        from conformance.output.console import shown

        raise ProtocolViolation(f"out-of-order answer: seq {shown(json.dumps(got_seq), 40)} where {seq} was expected")
    if kind == "result":
        if "output" not in message:
            raise ProtocolViolation(f"malformed 'result' for seq {seq}: no 'output'")
        if not isinstance(message["output"], dict):
            raise ProtocolViolation(f"malformed 'result' for seq {seq}: 'output' is {json_kind(message['output'])}, "
                                    "not an object")
        return Answer("result", output=message["output"])
    text_key = "message" if kind in ("error", "errored") else "reason"
    text = message.get(text_key, "")
    if not isinstance(text, str):
        raise ProtocolViolation(f"malformed '{kind}' for seq {seq}: '{text_key}' is not a string")
    if kind == "error":
        code = message.get("code")
        if not isinstance(code, str) or not code:
            raise ProtocolViolation(f"malformed 'error' for seq {seq}: 'code' must be a non-empty string")
        return Answer("error", code=code, message=text)
    return Answer(kind, message=text)
