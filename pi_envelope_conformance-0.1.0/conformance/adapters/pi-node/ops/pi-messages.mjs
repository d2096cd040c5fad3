// pi.replay-system and pi.convert-to-llm over Pi's own functions.
//
// - Replay: `getCurrentSystemMessage` and `getCurrentSystemPrompt` of @earendil-works/pi-ai
//   (public exports). Pi 1.6.0's SystemMessage has no `replace` field: a `replace: true` message
//   is replayed like any other, as Pi does.
// - Conversion: `convertToLlm` of @earendil-works/pi-coding-agent (public export).
//
// pi.validate-message is not provided: Pi 1.6.0 declares its message types in TypeScript only and
// has no run-time validator, so it neither refuses a malformed message nor reports its problems.
// Malformed messages given to replay or conversion are handed to Pi as they are; whatever Pi
// does with them (a result, or an exception, reported as `errored`) is its answer.

import { ai, codingAgent } from "../pi.mjs";

export const operations = {
  "pi.replay-system": async ({ messages }) => {
    const current = ai.getCurrentSystemMessage(messages);
    return {
      content: current?.content ?? "",
      // Object order as Pi keeps it (a JavaScript object: integer-like names come first).
      sections: Object.entries(current?.sections ?? {}).map(([name, text]) => ({ name, text })),
      tools: current?.toolsAdded ?? [],
      prompt: ai.getCurrentSystemPrompt(messages),
    };
  },

  "pi.convert-to-llm": async ({ messages }) => ({
    // JSON round trip: fields Pi leaves `undefined` are absent, as they are on the wire.
    messages: JSON.parse(JSON.stringify(codingAgent.convertToLlm(messages))),
  }),
};
