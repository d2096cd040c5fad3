"""envelope.session -- ENV-PAYLOAD-TOGETHER, ENV-PAYLOAD-DEVELOPER.
Bug: the developer-messages step is given the payload as it arrived rather than the one the
system-prompt step returned, so when both apply the replaced system prompt is lost.
"""

from __future__ import annotations

from reference.envelope import payload as payload_mod

from tests.blind.common import everywhere, swapped


def _apply_envelope(payload, adapter, original_prompt, envelope):
    result = payload
    current = adapter.read_system_prompt(payload)
    if original_prompt is not None and current is not None and current == original_prompt:
        replaced = adapter.replace_system_prompt(payload, envelope.providerInstructions)
        if replaced is not None:
            result = replaced
    if payload_mod.supports_developer_messages(adapter):
        with_developer = adapter.replace_developer_messages(payload, list(envelope.developerMessages))
        if with_developer is not None:
            result = with_developer
    return result


def handle(msg, call):
    with swapped(everywhere(payload_mod.apply_envelope, _apply_envelope)):
        return call()

# shown on: {"input": {"host": {"platform": "linux", "shell": "/bin/bash", "date": "2026-01-05"}, "steps": [{"registerAdapter": {"provider": "p"}}, {"register": {"id": "a", "content": "Be brief."}}, {"capture": {"sessionId": "s", "provider": "p", "systemPrompt": "PI", "systemPromptOptions": {"customPrompt": "Custom."}, "cwd": "/w"}}, {"providerRequest": {"sessionId": "s", "provider": "p", "payload": {"system": "PI", "messages": []}}}]}}
