"""envelope.instructions -- ENV-INSTR-CUSTOM.
Bug: to avoid a double blank line the custom prompt's trailing white space is cut before "\\n\\n" and the append-system text are added."""

from reference.envelope import instructions
from tests.blind.common import everywhere, swapped

_original = instructions.provider_instructions


def _instructions(system_prompt, custom_prompt, append_system_prompt):
    if custom_prompt and append_system_prompt:
        return f"{custom_prompt.rstrip()}\n\n{append_system_prompt}"
    return _original(system_prompt, custom_prompt, append_system_prompt)


def handle(msg, call):
    with swapped(everywhere(_original, _instructions)):
        return call()
