"""envelope.session -- ENV-PAYLOAD-TOGETHER, ENV-PAYLOAD-DEVELOPER.
Bug: the developer step's answer is taken as the payload with the original payload as fallback (replaceDeveloperMessages(next, msgs) ?? payload), so a developer step that returns nothing undoes the system-prompt replacement."""

from reference.envelope import payload as pl
from tests.blind.common import swapped


def apply_envelope(payload, adapter, original_prompt, envelope):
    result = payload
    current = adapter.read_system_prompt(payload)
    if original_prompt is not None and current is not None and current == original_prompt:
        replaced = adapter.replace_system_prompt(payload, envelope.providerInstructions)
        if replaced is not None:
            result = replaced
    if pl.supports_developer_messages(adapter):
        with_developer = adapter.replace_developer_messages(result, list(envelope.developerMessages))
        result = with_developer if with_developer is not None else payload
    return result


def handle(msg, call):
    with swapped([(pl, "apply_envelope", apply_envelope)]):
        return call()
