"""Provider (system) instructions (ENV-DECISION-INSTRUCTIONS)."""

from __future__ import annotations


def provider_instructions(
    system_prompt: str | None, custom_prompt: str | None, append_system_prompt: str | None
) -> str:
    """The provider instructions of one turn.

    Clauses:
        ENV-INSTR-CUSTOM: with a non-empty custom prompt (a ``SYSTEM.md`` override), the custom
            prompt, followed by ``\\n\\n`` and the append-system text when that is non-empty.
        ENV-INSTR-DEFAULT: with no custom prompt, or an empty one, Pi's already-built system prompt
            unchanged (``""`` when there is none); the append-system text is then not added again,
            as Pi's built prompt already holds it.

    Args:
        system_prompt: Pi's built system prompt, or ``None``.
        custom_prompt: ``systemPromptOptions.customPrompt``, or ``None``.
        append_system_prompt: ``systemPromptOptions.appendSystemPrompt``, or ``None``.

    Returns:
        The text sent as the provider's system instructions. Nothing is trimmed.
    """
    if custom_prompt:
        if append_system_prompt:
            return f"{custom_prompt}\n\n{append_system_prompt}"
        return custom_prompt
    return system_prompt or ""
