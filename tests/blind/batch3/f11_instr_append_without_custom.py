r"""envelope.instructions -- ENV-INSTR-DEFAULT.
Bug: the append-system text is added after Pi's built prompt too (system + "\n\n" + append when there is no custom prompt), though the built prompt already holds it."""

from reference.envelope import instructions
from tests.blind.common import everywhere, swapped

_original = instructions.provider_instructions


def _instructions(system_prompt, custom_prompt, append_system_prompt):
    if not custom_prompt and append_system_prompt and system_prompt:
        return f"{system_prompt}\n\n{append_system_prompt}"
    return _original(system_prompt, custom_prompt, append_system_prompt)


def handle(msg, call):
    with swapped(everywhere(_original, _instructions)):
        return call()
