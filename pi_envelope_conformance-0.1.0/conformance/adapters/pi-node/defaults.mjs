// The kit sends each case's `input` as the case wrote it: optional fields it leaves out are
// absent. Their defaults are in the operations' published JSON Schemas
// (conformance/schema/operations/<op>.input.json); this fills in the top-level ones.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SCHEMAS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "schema", "operations");
const cache = new Map();

function defaultsOf(op) {
  if (!cache.has(op)) {
    const file = join(SCHEMAS, `${op}.input.json`);
    const defaults = {};
    if (existsSync(file)) {
      const schema = JSON.parse(readFileSync(file, "utf-8"));
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (Object.hasOwn(property, "default")) defaults[name] = property.default;
      }
    }
    cache.set(op, defaults);
  }
  return cache.get(op);
}

/** `input` with every absent top-level field that has a schema default set to a copy of it. */
export function withDefaults(op, input) {
  const out = { ...input };
  for (const [name, value] of Object.entries(defaultsOf(op))) {
    if (!Object.hasOwn(out, name)) out[name] = structuredClone(value);
  }
  return out;
}
