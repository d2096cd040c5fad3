// The JSON-lines protocol loop (conformance/PROTOCOL.md) shared by the bundled Node adapters.
//
// `serve({ label, load, sandbox })` reads requests on standard input and writes one answer line
// for each on standard output, strictly in order. `load()` is called once, at the first `start`
// this adapter accepts, and gives `{ implementation, operations }`: the `started` answer's
// implementation record and a map from operation name to an async handler
// `(input, context) => output`. A handler throws `Refusal`, `Unsupported` or `Skipped`
// (errors.mjs) for those answers; anything else it throws is an `errored` answer, its stack on
// standard error. When `load()` throws `StartFailure`, its message goes to standard error and the
// process exits with code 3 without answering (the kit reports a start failure).

import { createInterface } from "node:readline";
import { withDefaults } from "./defaults.mjs";
import { Refusal, Skipped, StartFailure, Unsupported } from "./errors.mjs";

const PROTOCOL = 1;

/** Keep standard output for protocol lines: what the implementation prints goes to standard error.
 * Returns the real writer of standard output. */
function guardStdout() {
  const writeOut = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, encoding, callback) => process.stderr.write(chunk, encoding, callback);
  for (const level of ["log", "info", "debug", "warn"]) {
    console[level] = (...args) => process.stderr.write(`${args.map(String).join(" ")}\n`);
  }
  return writeOut;
}

/** `label`: how the adapter names itself on standard error; `sandbox`: from enterSandbox(). */
export async function serve({ label, load, sandbox }) {
  const writeOut = guardStdout();
  const send = (message) => writeOut(`${JSON.stringify(message)}\n`);
  let loaded = null;

  async function answer(request) {
    const { seq, op, input, root } = request;
    const handler = loaded.operations[op];
    if (!handler) {
      const { name, version } = loaded.implementation;
      return { type: "unsupported", seq, reason: `${name} ${version} has no operation ${op}` };
    }
    try {
      const output = await handler(withDefaults(op, input), { root: root ?? null, sandbox });
      return { type: "result", seq, output };
    } catch (error) {
      if (error instanceof Refusal) return { type: "error", seq, code: error.code, message: error.message };
      if (error instanceof Unsupported) return { type: "unsupported", seq, reason: error.message };
      if (error instanceof Skipped) return { type: "skipped", seq, reason: error.message };
      process.stderr.write(`${op} (seq ${seq}) failed: ${error?.stack ?? error}\n`);
      return { type: "errored", seq, message: `${op}: ${error?.message ?? String(error)}` };
    }
  }

  function protocolError(seq, message) {
    process.stderr.write(`${label}: ${message}\n`);
    return { type: "protocol-error", seq: Number.isInteger(seq) ? seq : null, message };
  }

  async function handshake(message) {
    if (message.protocol !== PROTOCOL) {
      return {
        type: "error",
        code: "protocol-unsupported",
        message: `this adapter speaks protocol ${PROTOCOL}, not ${JSON.stringify(message.protocol)}`,
        protocols: [PROTOCOL],
      };
    }
    if (!loaded) {
      try {
        loaded = await load();
      } catch (error) {
        if (!(error instanceof StartFailure)) throw error;
        process.stderr.write(`${label}: ${error.message}\n`);
        sandbox?.cleanup();
        process.exit(3);
      }
    }
    return {
      type: "started",
      protocol: PROTOCOL,
      implementation: loaded.implementation,
      operations: Object.keys(loaded.operations).sort(),
    };
  }

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
        if (!loaded) return protocolError(message.seq, "'run' before a successful 'start'");
        return answer(message);
      }
      default:
        return protocolError(message.seq, `unknown message type ${JSON.stringify(message.type)}`);
    }
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
  // After `stop`, or at the end of standard input. Leave even if a module holds a timer open,
  // once standard output has drained.
  sandbox?.cleanup();
  process.stdout.write = writeOut;
  writeOut("", () => process.exit(0));
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
