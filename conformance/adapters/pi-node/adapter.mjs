// The pi-node adapter: answers the conformance kit's operations with the published Pi 1.6.0 code.
//
// It speaks the kit's JSON-lines protocol (conformance/PROTOCOL.md, the loop in serve.mjs) on
// standard input and output: one JSON object per line each way, one request at a time.
// Everything that is not a protocol message goes to standard error.
//
// Before any of Pi's modules is loaded, the process is put in a sandbox (sandbox.mjs): a fresh
// temporary HOME and Pi agent directory, offline mode on, the user's environment variables
// removed, outgoing network connections refused. Nothing of the user's is read or written.
//
// The operations live in ops/*.mjs; each module exports `operations`, a map from operation name
// to an async handler `(input, context) => output`. A handler throws `Refusal` (a spec error
// with a code) or `Unsupported` (Pi lacks the operation or a field the case needs).

import { enterSandbox } from "./sandbox.mjs";
import { serve } from "./serve.mjs";

const sandbox = enterSandbox();
process.stderr.write(`pi-node adapter: sandbox ${sandbox.root}\n`);

// Pi's modules are imported after the sandbox is in place, at the first `start` this adapter
// accepts (inside the time the kit gives a start): a refused protocol version, or a stop or the end
// of input before any start, loads none of them.
async function load() {
  const { PI_VERSION, operations } = await import("./ops/index.mjs");
  return { implementation: { name: "pi", version: PI_VERSION, language: "javascript" }, operations };
}

await serve({ label: "pi-node adapter", load, sandbox });
