// The ext-ts adapter: answers the kit's envelope or profiles operations with the TypeScript
// sources of an extension's own checkout (README.md beside this file).
//
// Usage: adapter.mjs envelope PATH   (a checkout of the pi-developer-messages package folder)
//        adapter.mjs profiles PATH   (a checkout of pi-prompt-profiles)
//
// It speaks the kit's JSON-lines protocol through ../pi-node/serve.mjs, inside pi-node's sandbox
// (a scratch HOME and agent directory, no network, the user's variables removed). Node strips the
// sources' types itself; hooks.mjs finds `.ts` files behind `.js` imports and resolves the Pi
// packages a checkout does not install from pi-node's folder. The checkout is imported at the
// first `start`; a missing checkout, or one with none of the modules read, exits with code 3.

import { readFileSync } from "node:fs";
import { register } from "node:module";
import { join } from "node:path";
import { enterSandbox } from "../pi-node/sandbox.mjs";
import { serve } from "../pi-node/serve.mjs";

const AREAS = { envelope: "./envelope.mjs", profiles: "./profiles.mjs" };
const [area, checkout] = process.argv.slice(2);
const label = `${area}-ts adapter`;
if (!Object.hasOwn(AREAS, area ?? "")) {
  process.stderr.write(`ext-ts adapter: the first argument is the area, envelope or profiles, not ${JSON.stringify(area)}\n`);
  process.exit(2);
}

const sandbox = enterSandbox();
process.stderr.write(`${label}: sandbox ${sandbox.root}\n`);
register("./hooks.mjs", import.meta.url, {
  data: { fallbackParent: new URL("../pi-node/package.json", import.meta.url).href },
});

/** The checkout's package.json version, or "unversioned" where it has none. */
function versionOf(folder) {
  try {
    const { version } = JSON.parse(readFileSync(join(folder, "package.json"), "utf-8"));
    if (typeof version === "string" && version) return version;
  } catch {}
  return "unversioned";
}

async function load() {
  const module = await import(AREAS[area]);
  const operations = await module.load(checkout);
  const version = `${versionOf(checkout)} (checkout ${checkout})`;
  return { implementation: { name: module.WHAT, version, language: "typescript" }, operations };
}

await serve({ label, load, sandbox });
