"""envelope.instructions -- ENV-INSTR-CUSTOM.
Bug: the append-system text is added whenever it is given (not null), so an empty appendSystemPrompt
still adds "\\n\\n" after the custom prompt.
"""

from __future__ import annotations

from reference.envelope import instructions

from tests.blind.common import everywhere, swapped


def _provider_instructions(system_prompt, custom_prompt, append_system_prompt):
    if custom_prompt:
        if append_system_prompt is not None:
            return f"{custom_prompt}\n\n{append_system_prompt}"
        return custom_prompt
    return system_prompt or ""


def handle(msg, call):
    with swapped(everywhere(instructions.provider_instructions, _provider_instructions)):
        return call()


# shown on: {"op": "envelope.instructions", "input": {"systemPrompt": "pi", "customPrompt": "Custom", "appendSystemPrompt": ""}}
