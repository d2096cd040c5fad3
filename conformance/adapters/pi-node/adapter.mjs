// The pi-node adapter: answers the conformance kit's operations with the published Pi 1.6.0 code.
//
// It speaks the kit's JSON-lines protocol (conformance/PROTOCOL.md) on standard input and output:
// one JSON object per line each way, one request at a time. Everything that is not a protocol
// message goes to standard error.
//
// Before any of Pi's modules is loaded, the process is put in a sandbox (sandbox.mjs): a fresh
// temporary HOME and Pi agent directory, offline mode on, the user's environment variables
// removed, outgoing network connections refused. Nothing of the user's is read or written.
//
// The operations live in ops/*.mjs; each module exports `operations`, a map from operation name
// to an async handler `(input, context) => output`. A handler throws `Refusal` (a spec error
// with a code) or `Unsupported` (Pi lacks the operation or a field the case needs).

import { createInterface } from "node:readline";
import { enterSandbox } from "./sandbox.mjs";
import { Refusal, Skipped, Unsupported } from "./errors.mjs";

const PROTOCOL = 1;

// Keep standard output for protocol messages only: anything Pi prints goes to standard error.
const writeOut = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, encoding, callback) => process.stderr.write(chunk, encoding, callback);
for (const level of ["log", "info", "debug", "warn"]) {
  console[level] = (...args) => process.stderr.write(`${args.map(String).join(" ")}\n`);
}

function send(message) {
  writeOut(`${JSON.stringify(message)}\n`);
}

const sandbox = enterSandbox();

// Pi's modules are imported only now, after the sandbox is in place.
const { PI_VERSION, operations } = await import("./ops/index.mjs");

async function answer(request) {
  const { seq, op, input, root } = request;
  const handler = operations[op];
  if (!handler) {
    return { type: "unsupported", seq, reason: `Pi ${PI_VERSION} has no operation ${op}` };
  }
  try {
    const output = await handler(input ?? {}, { root: root ?? null, sandbox });
    return { type: "result", seq, output };
  } catch (error) {
    if (error instanceof Refusal) return { type: "error", seq, code: error.code, message: error.message };
    if (error instanceof Unsupported) return { type: "unsupported", seq, reason: error.message };
    if (error instanceof Skipped) return { type: "skipped", seq, reason: error.message };
    // Not a refusal the specification defines: the adapter or Pi failed. The kit records the
    // case as errored; the stack goes to standard error for the report's stderr tail.
    process.stderr.write(`${op} (seq ${seq}) failed: ${error?.stack ?? error}\n`);
    return {
      type: "error",
      seq,
      code: "adapter-failure",
      message: `${op}: ${error?.message ?? String(error)}`,
    };
  }
}

function handshake(message) {
  if (message.protocol !== PROTOCOL) {
    process.stderr.write(`pi-node adapter: kit speaks protocol ${message.protocol}, this adapter ${PROTOCOL}\n`);
  }
  send({
    type: "started",
    protocol: PROTOCOL,
    implementation: { name: "pi", version: PI_VERSION, language: "javascript" },
    operations: Object.keys(operations).sort(),
  });
}

function stop(code = 0) {
  send({ type: "stopped" });
  sandbox.cleanup();
  process.exitCode = code;
  // Let standard output drain, then leave even if one of Pi's modules holds a timer open.
  process.stdout.once?.("drain", () => process.exit(code));
  setImmediate(() => process.exit(code));
}

// Requests are answered strictly in order: the next line is read only after the answer is sent.
const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
let stopping = false;
for await (const line of lines) {
  if (!line.trim()) continue;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    process.stderr.write(`pi-node adapter: not a JSON line: ${line.slice(0, 200)}\n`);
    continue;
  }
  if (message.type === "start") handshake(message);
  else if (message.type === "run") send(await answer(message));
  else if (message.type === "stop") {
    stopping = true;
    stop(0);
    break;
  } else process.stderr.write(`pi-node adapter: unknown message type ${JSON.stringify(message.type)}\n`);
}
if (!stopping) {
  // Standard input closed without a stop message: clean up and leave.
  sandbox.cleanup();
}
