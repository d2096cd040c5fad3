"""Reference handlers of the message operations (``pi.validate-message``, ``pi.replay-system``,
``pi.convert-to-llm``)."""

from __future__ import annotations

from conformance.adapters.reference import Context, implements
from conformance.operations.pi_messages import (
    ConvertToLlmInput,
    ConvertToLlmOutput,
    MessageProblem,
    ReplayedSection,
    ReplaySystemInput,
    ReplaySystemOutput,
    ValidateMessageInput,
    ValidateMessageOutput,
)
from reference.pi.core.convert import convert_to_llm
from reference.pi.core.editions import honours_replace
from reference.pi.core.message_editions import message_models
from reference.pi.core.messages import validate_message
from reference.pi.core.replay import render_system_prompt, replay_system_messages


@implements("pi.validate-message")
def validate(inp: ValidateMessageInput, ctx: Context) -> ValidateMessageOutput:
    result = validate_message(inp.message, persist=inp.persist, models=message_models(ctx.edition))
    return ValidateMessageOutput(
        valid=result.valid,
        role=result.role,
        known=result.known,
        problems=[MessageProblem(path=p.path, code=p.code) for p in result.problems],
    )


@implements("pi.replay-system")
def replay(inp: ReplaySystemInput, ctx: Context) -> ReplaySystemOutput:
    state = replay_system_messages(inp.messages, replace=honours_replace(ctx.edition))
    return ReplaySystemOutput(
        content="\n\n".join(state.content),
        sections=[ReplayedSection(name=n, text=t) for n, t in state.sections.items()],
        tools=list(state.tools.values()),
        prompt=render_system_prompt(state),
    )


@implements("pi.convert-to-llm")
def convert(inp: ConvertToLlmInput, ctx: Context) -> ConvertToLlmOutput:
    return ConvertToLlmOutput(messages=convert_to_llm(inp.messages))
