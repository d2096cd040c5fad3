"""envelope.instructions -- ENV-INSTR-CUSTOM.
Bug: "non-empty" is read as "non-blank": a custom prompt (or append-system text) of white space
only counts as absent, so Pi's built prompt is used instead of the blank custom prompt.
"""

from __future__ import annotations

from reference.envelope import instructions
from reference.text import js_trim

from tests.blind.common import everywhere, swapped


def _provider_instructions(system_prompt, custom_prompt, append_system_prompt):
    if custom_prompt and js_trim(custom_prompt):
        if append_system_prompt and js_trim(append_system_prompt):
            return f"{custom_prompt}\n\n{append_system_prompt}"
        return custom_prompt
    return system_prompt or ""


def handle(msg, call):
    with swapped(everywhere(instructions.provider_instructions, _provider_instructions)):
        return call()
