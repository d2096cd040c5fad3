"""envelope.build -- ENV-RENDER-OPTIONS.
Bug: the context-files heading takes the cwd from Pi's systemPromptOptions.cwd when Pi gives one,
instead of the request's cwd, as if the options were the turn's own record of the working directory.
"""

from __future__ import annotations

from reference.envelope import build
from reference.envelope.context_files import context_message
from reference.envelope.instructions import provider_instructions

from tests.blind.common import everywhere, swapped


def _build_envelope(contributions, request):
    opts = request.systemPromptOptions
    cwd = opts.get("cwd") if isinstance(opts.get("cwd"), str) and opts.get("cwd") else request.cwd
    return build.Envelope(
        provider=request.provider,
        providerInstructions=provider_instructions(
            request.systemPrompt, opts.get("customPrompt"), opts.get("appendSystemPrompt")
        ),
        developerMessages=tuple(build.developer_messages(list(contributions), request)),
        contextMessage=context_message(cwd, request.contextFiles, request.agentDir),
    )


def handle(msg, call):
    with swapped(everywhere(build.build_envelope, _build_envelope)):
        return call()
