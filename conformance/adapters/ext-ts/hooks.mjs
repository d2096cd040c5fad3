// Module resolution for a checkout's TypeScript sources, registered by adapter.mjs
// (`module.register`) before the checkout is imported. Node strips the types itself; these hooks
// only find files:
//
// - a relative `./x.js` that does not exist resolves to `./x.ts` beside it (TypeScript projects
//   compiled by tsc write their imports with the `.js` ending of the output);
// - a bare package name the checkout cannot resolve (no `node_modules` of its own, or not that
//   package) resolves from the pi-node adapter's folder, which holds the published Pi 1.6.0
//   packages (`@earendil-works/pi-coding-agent`, `pi-ai`, `pi-tui`) the extensions build on.

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

let fallbackParent;

/** `data.fallbackParent`: a file URL inside the folder bare names fall back to. */
export async function initialize(data) {
  fallbackParent = data.fallbackParent;
}

const RELATIVE = /^\.{1,2}\//;

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
    if (RELATIVE.test(specifier) && specifier.endsWith(".js") && context.parentURL) {
      const candidate = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
      if (existsSync(fileURLToPath(candidate))) return nextResolve(candidate.href, context);
      throw error;
    }
    if (!RELATIVE.test(specifier) && !specifier.startsWith("/") && !specifier.includes(":") && fallbackParent) {
      try {
        return await nextResolve(specifier, { ...context, parentURL: fallbackParent });
      } catch {
        throw error; // the first error names the checkout's module that imports it
      }
    }
    throw error;
  }
}
