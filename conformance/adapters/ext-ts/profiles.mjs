// The profiles operations over a checkout of `pi-prompt-profiles` (Yivas/pi-prompt-profiles).
//
// Only the pure core is read (`src/core/*.ts`, which docs/architecture.md keeps free of Pi
// imports): composition and stripping (compose.ts), matching (match.ts), config validation
// (config.ts) and references (refs.ts). Each operation names the exports it calls; a checkout
// without one answers `unsupported`. The core's diagnostics are `{level, code, message}`: their
// scope is the one the call was made for; their subject is the one the kit's table of codes
// (conformance/operations/profiles.py) fixes for the code, where it fixes one, else null, as is
// detail (the core tells those apart only in its message).

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Refusal } from "../pi-node/errors.mjs";
import { loadOperations } from "./checkout.mjs";

export const WHAT = "pi-prompt-profiles";

const MODULES = {
  "src/core/compose.ts": ["applyManagedPrompt", "stripManagedBlocks"],
  "src/core/match.ts": ["matchBinding", "matchRule", "ruleSpecificity"],
  "src/core/config.ts": ["loadConfigFile"],
  "src/core/refs.ts": ["formatRef", "resolveRef"],
};
const NO_FUNCTION = {
  "profiles.load": "discovery and inheritance run inside the extension's Runtime (src/adapter/), which needs a Pi session; this adapter maps no function onto them",
  "profiles.resolve": "resolution runs inside the extension's Runtime (src/adapter/runtime.ts) over state it loads for a Pi session; this adapter maps no function onto it",
  "profiles.session": "session scripts drive the extension's Pi hooks and commands; this adapter maps no function onto them",
  "profiles.settings": "this adapter maps no function of src/core/settings.ts onto the settings registry yet",
  "profiles.config-edit": "config edits run in src/adapter/config-edit.ts against a Pi context; this adapter maps no function onto them",
  "profiles.picker": "this adapter maps no function of src/core/picker.ts onto the pickers yet",
};

const SCOPE_ORDER = { none: 0, global: 1, project: 2 };

/** The subject the kit's table of codes gives every diagnostic of a code (one subject a code). */
const FIXED_SUBJECT = {
  "profiles-dir": "profiles",
  "config-parse": "config.json",
  "config-shape": "config.json",
  "config-version": "version",
  "config-selection": "selection",
  "config-default": "defaultProfile",
  "config-profiles": "profiles",
  "config-bindings": "bindings",
  "config-inherit": "inheritGlobalBindings",
  "config-subagents": "subagents",
};

/** The kit's diagnostic records, in its canonical order (scope, code, subject, detail). */
function diagnosticsOf(found, scope) {
  return found
    .map(({ level, code }) => ({ level, code, scope, subject: FIXED_SUBJECT[code] ?? null, detail: null }))
    .sort((a, b) => SCOPE_ORDER[a.scope ?? "none"] - SCOPE_ORDER[b.scope ?? "none"] || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

const UNTERMINATED = { level: "warn", code: "block-unterminated", scope: null, subject: "systemPrompt", detail: null };

/** A profile of `layers` (bodies, profile first) for the core's composer; the kit gives bodies
 * only, so the layers are named global:layer-1, global:layer-2, ... */
function profileOf(layers) {
  const named = layers.map((content, i) => ({ ref: { scope: "global", id: `layer-${i + 1}` }, content, hash: "" }));
  return { ref: named[0].ref, layers: named };
}

/** The config the core reads from `text` in `scope`: `{config, diagnostics}` (a scratch file,
 * since the core's entry point reads a path). */
function readConfig(api, text, scope) {
  const folder = mkdtempSync(join(process.env.TMPDIR, "config-"));
  try {
    const file = join(folder, "config.json");
    writeFileSync(file, text);
    return api.loadConfigFile(file, scope);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function ruleOf(rule) {
  const out = {};
  if (rule.provider !== undefined) out.provider = rule.provider;
  if (rule.model !== undefined) out.model = rule.model;
  return out;
}

function configRecord(api, config, scope) {
  if (!config) return null;
  const ref = (value) => {
    const parsed = api.resolveRef(value, scope);
    return parsed ? api.formatRef(parsed) : value;
  };
  return {
    selection: config.selection ? { ...config.selection, ...(config.selection.profile ? { profile: ref(config.selection.profile) } : {}) } : null,
    defaultProfile: config.defaultProfile != null ? ref(config.defaultProfile) : null,
    profiles: config.profiles ?? {},
    bindings: (config.bindings ?? []).map((b) => ({ id: b.id, profile: ref(b.profile), priority: b.priority ?? 0, match: b.match.map(ruleOf) })),
    inheritGlobalBindings: config.inheritGlobalBindings ?? null,
    subagents: config.subagents ?? null,
    unknownKeys: [],
  };
}

function operationsOver(need) {
  return {
    "profiles.strip": async (input) => {
      const api = need(["stripManagedBlocks"]);
      const found = api.stripManagedBlocks(input.text);
      return { text: found.text, removed: found.removed, diagnostics: found.unterminated ? [UNTERMINATED] : [] };
    },
    "profiles.compose": async (input) => {
      const api = need(["applyManagedPrompt"]);
      const profile = input.layers?.length ? profileOf(input.layers) : undefined;
      let prompt = input.systemPrompt ?? "";
      const passes = [];
      let first;
      for (let i = 0; i < input.times; i++) {
        const result = api.applyManagedPrompt(prompt, profile);
        first ??= result;
        // `off`, and no profile, return no systemPrompt: Pi keeps its own (src/index.ts).
        const returned = input.mode === "off" || !profile ? null : result.systemPrompt;
        passes.push(returned);
        if (returned !== null) prompt = returned;
      }
      return {
        systemPrompt: passes.at(-1),
        passes,
        removed: first.stripped,
        diagnostics: first.unterminated ? [UNTERMINATED] : [],
      };
    },
    "profiles.config": async (input) => {
      if ((input.text == null) === (input.config == null)) {
        throw new Refusal("input-invalid", "give exactly one of text and config");
      }
      const api = need(["loadConfigFile", "resolveRef", "formatRef"]);
      const text = input.text ?? JSON.stringify(input.config);
      const found = readConfig(api, text, input.scope);
      return { config: configRecord(api, found.config, input.scope), diagnostics: diagnosticsOf(found.diagnostics, input.scope) };
    },
    "profiles.match": async (input) => {
      const api = need(["loadConfigFile", "matchBinding", "matchRule", "ruleSpecificity"]);
      // Each raw rule goes through the core's config validation alone: a rule it drops is null.
      const kept = [];
      const rules = input.match.map((raw) => {
        const config = { version: 1, bindings: [{ id: "b", profile: "p", match: [raw] }] };
        const rule = readConfig(api, JSON.stringify(config), "global").config?.bindings?.[0]?.match?.[0];
        if (!rule) return null;
        kept.push(rule);
        return { matches: api.matchRule(rule, input.model), specificity: api.ruleSpecificity(rule) };
      });
      const best = kept.length ? api.matchBinding({ id: "b", profile: "p", match: kept }, input.model, "global") : undefined;
      return { rules, matches: best !== undefined, specificity: best ? best.specificity : null };
    },
  };
}

/** The operations over the checkout at `path`; `StartFailure` when it cannot be read. */
export function load(path) {
  return loadOperations({ path, what: WHAT, modules: MODULES, build: operationsOver, noFunction: NO_FUNCTION });
}
