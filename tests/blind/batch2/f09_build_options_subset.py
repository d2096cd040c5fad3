"""envelope.build -- ENV-RENDER-OPTIONS, ENV-DECISION-CONTRIBUTIONS.
Bug: the render context's systemPromptOptions holds only the keys the envelope itself reads (customPrompt, appendSystemPrompt, contextFiles), so a content function reading cwd or another of Pi's options gets nothing."""

from reference.envelope.build import EnvelopeRequest
from reference.envelope.contributions import RenderContext
from tests.blind.common import swapped

KEPT = ("customPrompt", "appendSystemPrompt", "contextFiles")


def render_context(self):
    opts = {k: v for k, v in self.systemPromptOptions.items() if k in KEPT}
    return RenderContext(provider=self.provider, activeTools=tuple(self.activeTools), sessionId=self.sessionId,
                         prompt=self.prompt, systemPromptOptions=opts)


def handle(msg, call):
    with swapped([(EnvelopeRequest, "render_context", render_context)]):
        return call()
