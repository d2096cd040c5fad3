"""Conversion of agent messages to model messages (Pi's docs "Coding-agent messages",
PI-DECISION-CONVERSION): what Pi sends a provider in place of its coding-agent roles."""

from __future__ import annotations

import math
from typing import Any

from reference.pi.core.messages import require_valid_messages

#: Text before a compaction summary (PI-CONVERT-COMPACTION-SUMMARY).
COMPACTION_SUMMARY_PREFIX = (
    "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
)
#: Text after a compaction summary.
COMPACTION_SUMMARY_SUFFIX = "\n</summary>"
#: Text before a branch summary (PI-CONVERT-BRANCH-SUMMARY).
BRANCH_SUMMARY_PREFIX = (
    "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
)
#: Text after a branch summary (no newline before it, as in Pi).
BRANCH_SUMMARY_SUFFIX = "</summary>"

#: Roles a model understands; such messages pass unchanged (PI-CONVERT-PASSTHROUGH).
PASSTHROUGH_ROLES = frozenset({"system", "user", "assistant", "toolResult"})


def js_number(value: int | float) -> str:
    """A JSON number as JavaScript's ``String(value)`` writes it (Number::toString, radix 10).

    The value is first the double JavaScript would hold (an integer beyond 2**53 rounds, one
    beyond the double range is ``Infinity``). Its shortest round-trip digits (Python's ``repr``
    gives the same ones) are then laid out as JavaScript does: plain below 1e21 and down to
    1e-6 (``2.0`` -> ``"2"``, ``0.000001``), exponent form otherwise (``1e+21``, ``1e-7``).
    Implements the number form of PI-CONVERT-BASH-EXIT.
    """
    try:
        x = float(value)
    except OverflowError:
        x = math.inf if value > 0 else -math.inf
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    mantissa, _, exponent = repr(abs(x)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    stripped = digits.lstrip("0")
    # n: where the decimal point stands relative to the first significant digit.
    n = len(whole) - (len(digits) - len(stripped)) + int(exponent or 0)
    digits = stripped.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    e = n - 1
    tail = f"e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + (digits if k == 1 else digits[0] + "." + digits[1:]) + tail


def bash_execution_to_text(message: dict) -> str:
    """The user text that stands for a ``bashExecution`` message.

    Shape: ``Ran `COMMAND```, a newline, then the output in a fenced block
    (`````\\nOUTPUT\\n`````) or ``(no output)`` when the output is empty. Then, separated by a
    blank line: ``(command cancelled)`` when cancelled, else ``Command exited with code N`` when
    the exit code is present and not 0; then ``[Output truncated. Full output: PATH]`` when
    ``truncated`` is true and ``fullOutputPath`` is a non-empty string.

    Implements PI-CONVERT-BASH-TEXT, PI-CONVERT-BASH-EXIT, PI-CONVERT-BASH-CANCEL and
    PI-CONVERT-BASH-TRUNCATED.
    """
    text = f"Ran `{message['command']}`\n"
    output = message["output"]
    text += f"```\n{output}\n```" if output else "(no output)"
    exit_code = message.get("exitCode")
    if message["cancelled"]:
        text += "\n\n(command cancelled)"
    elif exit_code is not None and exit_code != 0:
        text += f"\n\nCommand exited with code {js_number(exit_code)}"
    if message["truncated"] and message.get("fullOutputPath"):
        text += f"\n\n[Output truncated. Full output: {message['fullOutputPath']}]"
    return text


def _user(content: list[dict], timestamp: Any) -> dict:
    """A model ``user`` message with the source message's timestamp (PI-CONVERT-TIMESTAMP)."""
    return {"role": "user", "content": content, "timestamp": timestamp}


def convert_bash_execution(message: dict) -> dict | None:
    """A ``bashExecution`` message as a user message with one text block, or ``None`` (left out
    of the model's context) when ``excludeFromContext`` is true.

    Implements PI-CONVERT-BASH-EXCLUDE.
    """
    if message.get("excludeFromContext") is True:
        return None
    return _user([{"type": "text", "text": bash_execution_to_text(message)}], message["timestamp"])


def convert_custom(message: dict) -> dict:
    """A ``custom`` message as a user message: string content becomes one text block, block
    content is kept as is; ``customType``, ``display`` and ``details`` are not sent.

    Implements PI-CONVERT-CUSTOM.
    """
    content = message["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    return _user(blocks, message["timestamp"])


def convert_branch_summary(message: dict) -> dict:
    """A ``branchSummary`` message as a user message: :data:`BRANCH_SUMMARY_PREFIX`, the summary,
    :data:`BRANCH_SUMMARY_SUFFIX`, as one text block. Implements PI-CONVERT-BRANCH-SUMMARY."""
    text = BRANCH_SUMMARY_PREFIX + message["summary"] + BRANCH_SUMMARY_SUFFIX
    return _user([{"type": "text", "text": text}], message["timestamp"])


def convert_compaction_summary(message: dict) -> dict:
    """A ``compactionSummary`` message as a user message: :data:`COMPACTION_SUMMARY_PREFIX`, the
    summary, :data:`COMPACTION_SUMMARY_SUFFIX`, as one text block.
    Implements PI-CONVERT-COMPACTION-SUMMARY."""
    text = COMPACTION_SUMMARY_PREFIX + message["summary"] + COMPACTION_SUMMARY_SUFFIX
    return _user([{"type": "text", "text": text}], message["timestamp"])


_CONVERTERS = {
    "bashExecution": convert_bash_execution,
    "custom": convert_custom,
    "branchSummary": convert_branch_summary,
    "compactionSummary": convert_compaction_summary,
}


def convert_to_llm(messages: list[Any]) -> list[dict]:
    """Convert agent messages to the model messages sent in a request: ``bashExecution`` and
    ``custom`` messages and the two summaries become ``user`` messages (with the wrapper texts of
    Pi's published implementation, which PI-DECISION-CONVERSION adopts), the four base roles pass
    unchanged, and any other role is dropped.

    Args:
        messages: agent messages as JSON data, in transcript order.

    Returns:
        the model messages in the same order: ``system``, ``user``, ``assistant`` and
        ``toolResult`` messages unchanged (every field kept, PI-CONVERT-PASSTHROUGH), the
        coding-agent roles converted by the functions above, messages of unknown roles left out
        (PI-CONVERT-UNKNOWN-DROP).

    Raises:
        SpecError: ``message-invalid`` when a message of a known role is malformed, naming its
            path (``messages[1].exitCode``); a streamed ``pending`` assistant message is
            accepted, since a request is built from messages in flight.
    """
    require_valid_messages(messages, persist=False)
    out = []
    for message in messages:
        role = message["role"]
        if role in PASSTHROUGH_ROLES:
            out.append(message)
        elif role in _CONVERTERS:
            converted = _CONVERTERS[role](message)
            if converted is not None:
                out.append(converted)
    return out
