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
import { withDefaults } from "./defaults.mjs";
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
process.stderr.write(`pi-node adapter: sandbox ${sandbox.root}\n`);

// Pi's modules are imported after the sandbox is in place, at the first `start` this adapter
// accepts (inside the time the kit gives a start): a refused protocol version, or a stop or the end
// of input before any start, loads none of them.
let PI_VERSION;
let operations;

async function answer(request) {
  const { seq, op, input, root } = request;
  const handler = operations[op];
  if (!handler) {
    return { type: "unsupported", seq, reason: `Pi ${PI_VERSION} has no operation ${op}` };
  }
  try {
    const output = await handler(withDefaults(op, input), { root: root ?? null, sandbox });
    return { type: "result", seq, output };
  } catch (error) {
    if (error instanceof Refusal) return { type: "error", seq, code: error.code, message: error.message };
    if (error instanceof Unsupported) return { type: "unsupported", seq, reason: error.message };
    if (error instanceof Skipped) return { type: "skipped", seq, reason: error.message };
    // Not a refusal the specification defines: the adapter or Pi failed. The case is errored;
    // the stack goes to standard error, whose tail the kit shows.
    process.stderr.write(`${op} (seq ${seq}) failed: ${error?.stack ?? error}\n`);
    return { type: "errored", seq, message: `${op}: ${error?.message ?? String(error)}` };
  }
}

/** Why a `run` request cannot be read, or null when it can. */
function malformedRun(message) {
  if (!Number.isInteger(message.seq)) return "'run' field 'seq' must be an integer";
  if (typeof message.op !== "string" || !message.op) return "'run' field 'op' must be a non-empty string";
  if (message.input === null || typeof message.input !== "object" || Array.isArray(message.input)) {
    return "'run' field 'input' must be an object";
  }
  if (message.root !== undefined && message.root !== null && typeof message.root !== "string") {
    return "'run' field 'root' must be a string or null";
  }
  return null;
}

function protocolError(seq, message) {
  process.stderr.write(`pi-node adapter: ${message}\n`);
  return { type: "protocol-error", seq: Number.isInteger(seq) ? seq : null, message };
}

let started = false;

async function handshake(message) {
  if (message.protocol !== PROTOCOL) {
    return {
      type: "error",
      code: "protocol-unsupported",
      message: `this adapter speaks protocol ${PROTOCOL}, not ${JSON.stringify(message.protocol)}`,
      protocols: [PROTOCOL],
    };
  }
  if (!started) ({ PI_VERSION, operations } = await import("./ops/index.mjs"));
  started = true;
  return {
    type: "started",
    protocol: PROTOCOL,
    implementation: { name: "pi", version: PI_VERSION, language: "javascript" },
    operations: Object.keys(operations).sort(),
  };
}

/** The one line that answers one line read. */
async function reply(line) {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return protocolError(null, "the line is not JSON");
  }
  if (message === null || typeof message !== "object" || Array.isArray(message)) {
    return protocolError(null, "the line is not a JSON object");
  }
  switch (message.type) {
    case "start":
      return handshake(message);
    case "run": {
      const problem = malformedRun(message);
      if (problem) return protocolError(message.seq, problem);
      if (!started) return protocolError(message.seq, "'run' before a successful 'start'");
      return answer(message);
    }
    default:
      return protocolError(message.seq, `unknown message type ${JSON.stringify(message.type)}`);
  }
}

function finish() {
  sandbox.cleanup();
  // Leave even if one of Pi's modules holds a timer open, once standard output has drained.
  process.stdout.write = writeOut;
  writeOut("", () => process.exit(0));
}

// Requests are answered strictly in order: the next line is handled only after the answer is sent.
const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
for await (const line of lines) {
  let stop = false;
  try {
    stop = JSON.parse(line)?.type === "stop";
  } catch {}
  if (stop) {
    send({ type: "stopped" });
    break;
  }
  send(await reply(line));
}
// After `stop`, or at the end of standard input.
finish();
