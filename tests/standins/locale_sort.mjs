// A stand-in adapter whose order follows the machine's locale, as a JavaScript implementation
// does when it compares ids with a bare `a.localeCompare(b)` (note N3 forbids it).
//
// It serves the reference (the command given as its arguments, e.g. `python -m
// conformance.adapters.server`) and passes every line through, except that it orders the developer
// messages of `envelope.developer-messages` again: by the contributions' priority, ties by
// `localeCompare` without a locale, the environment message last. Under C.UTF-8 that agrees with
// the reference on the suite's cases; under da_DK.UTF-8 (upper case first) it does not.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const requests = new Map();

function reorder(request, output) {
  const priority = new Map(request.input.contributions.map((c) => [c.id, c.priority ?? 0]));
  const rest = output.messages.filter((m) => m.id !== "environment");
  const last = output.messages.filter((m) => m.id === "environment");
  rest.sort((a, b) => (priority.get(a.id) ?? 0) - (priority.get(b.id) ?? 0) || a.id.localeCompare(b.id));
  return { ...output, messages: [...rest, ...last] };
}

createInterface({ input: process.stdin }).on("line", (line) => {
  try {
    const message = JSON.parse(line);
    if (message.type === "run" && message.op === "envelope.developer-messages") requests.set(message.seq, message);
  } catch {
    // not JSON: the reference answers it with a protocol-error
  }
  child.stdin.write(line + "\n");
});
process.stdin.on("end", () => child.stdin.end());

createInterface({ input: child.stdout }).on("line", (line) => {
  const message = JSON.parse(line);
  const request = requests.get(message.seq);
  if (request && message.type === "result") {
    requests.delete(message.seq);
    process.stdout.write(JSON.stringify({ ...message, output: reorder(request, message.output) }) + "\n");
    return;
  }
  process.stdout.write(line + "\n");
});
child.on("exit", (code) => process.exit(code ?? 1));
