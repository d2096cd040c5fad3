#!/usr/bin/env node
// my-adapter.mjs: a skeleton JSON-lines adapter for the pi-envelope-conformance kit (protocol 1).
// It answers the handshake and kit.echo, and every other operation `unsupported`, so it passes
// smoke as it stands. Node 18 or newer, no dependencies.
//   pi-conformance smoke --adapter "node my-adapter.mjs"
//   pi-conformance run --adapter "node my-adapter.mjs"
// Add one function per operation to `operations` (names and schemas: `pi-conformance list`,
// `pi-conformance schema --out DIR`). A case sends its input as written: fill in the defaults of the
// operation's input schema for the fields it leaves out (conformance/ADAPTERS.md shows how).
import { createInterface } from "node:readline";

const IMPLEMENTATION = { name: "my-implementation", version: "0.1.0", language: "javascript" };

/** A refusal the specification defines: answered as `error` with its stable code. */
export class Refusal extends Error {
  constructor(code, message) {
    super(message ?? code);
    this.code = code;
  }
}
/** An operation, or a field of a case, that this implementation does not provide. */
export class Unsupported extends Error {}

// One function per operation: (input, { root, edition }) => output. `root` is the absolute path of
// the case's file tree (or null); paths in `input` are relative to it.
const operations = {
  "kit.echo": (input) => ({ value: input.value }),
  // "envelope.instructions": (input) => ({ providerInstructions: ... }),
};

// Standard output carries protocol lines only: anything logged goes to standard error.
const write = process.stdout.write.bind(process.stdout);
console.log = console.info = console.warn = console.debug = (...args) => process.stderr.write(`${args.join(" ")}\n`);
const send = (message) => write(`${JSON.stringify(message)}\n`);

let started = false;
async function answer(message) {
  const seq = Number.isInteger(message.seq) ? message.seq : null;
  if (message.type === "start") {
    if (message.protocol !== 1) {
      return { type: "error", code: "protocol-unsupported", message: `this adapter speaks protocol 1, not ${JSON.stringify(message.protocol)}`, protocols: [1] };
    }
    started = true;
    return { type: "started", protocol: 1, implementation: IMPLEMENTATION, operations: Object.keys(operations).sort() };
  }
  if (message.type !== "run") return { type: "protocol-error", seq, message: `unknown message type ${JSON.stringify(message.type)}` };
  if (seq === null) return { type: "protocol-error", seq, message: "'run' field 'seq' must be an integer" };
  if (typeof message.op !== "string" || !message.op) return { type: "protocol-error", seq, message: "'run' field 'op' must be a non-empty string" };
  if (message.input === null || typeof message.input !== "object" || Array.isArray(message.input)) {
    return { type: "protocol-error", seq, message: "'run' field 'input' must be an object" };
  }
  if (!started) return { type: "protocol-error", seq, message: "'run' before 'start'" };
  const handler = operations[message.op];
  if (!handler) return { type: "unsupported", seq, reason: `${message.op} is not provided` };
  try {
    return { type: "result", seq, output: await handler(message.input, { root: message.root ?? null, edition: message.edition ?? null }) };
  } catch (error) {
    if (error instanceof Refusal) return { type: "error", seq, code: error.code, message: error.message };
    if (error instanceof Unsupported) return { type: "unsupported", seq, reason: error.message };
    process.stderr.write(`${message.op} failed: ${error?.stack ?? error}\n`);
    return { type: "errored", seq, message: String(error?.message ?? error) };
  }
}

// One request at a time: read a line, answer it, then read the next.
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    send({ type: "protocol-error", seq: null, message: "the line is not JSON" });
    continue;
  }
  if (message === null || typeof message !== "object" || Array.isArray(message)) {
    send({ type: "protocol-error", seq: null, message: "the line is not a JSON object" });
    continue;
  }
  if (message.type === "stop") {
    write(`${JSON.stringify({ type: "stopped" })}\n`, () => process.exit(0));
    break;
  }
  send(await answer(message));
}
// At the end of standard input there is no line to answer: exit with code 0, writing nothing.
