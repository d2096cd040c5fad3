"""envelope.instructions -- ENV-INSTR-CUSTOM.
Bug: the append-system text is added to a custom prompt whenever it is given (not None), so an empty append-system text leaves the custom prompt followed by "\n\n"."""

from reference.envelope import instructions
from tests.blind.common import everywhere, swapped


def _instructions(system_prompt, custom_prompt, append_system_prompt):
    if custom_prompt:
        if append_system_prompt is not None:
            return f"{custom_prompt}\n\n{append_system_prompt}"
        return custom_prompt
    return system_prompt or ""


def handle(msg, call):
    with swapped(everywhere(instructions.provider_instructions, _instructions)):
        return call()
