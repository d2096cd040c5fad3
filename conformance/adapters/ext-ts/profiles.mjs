// The profiles operations over a checkout of `pi-prompt-profiles` (Yivas/pi-prompt-profiles).
//
// Only the pure core is read (`src/core/*.ts`, which docs/architecture.md keeps free of Pi
// imports): composition and stripping (compose.ts), matching (match.ts), config validation
// (config.ts), references (refs.ts), the settings registry (settings.ts) and the pickers' lists
// (picker.ts). Each operation names the exports it calls; a checkout
// without one answers `unsupported`. The core's diagnostics are `{level, code, message}`: their
// scope is the one the call was made for; their subject is the one the kit's table of codes
// (conformance/operations/profiles.py) fixes for the code, where it fixes one, else null, as is
// detail (the core tells those apart only in its message).

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Refusal, Unsupported } from "../pi-node/errors.mjs";
import { loadOperations } from "./checkout.mjs";

export const WHAT = "pi-prompt-profiles";

const MODULES = {
  "src/core/compose.ts": ["applyManagedPrompt", "stripManagedBlocks"],
  "src/core/match.ts": ["matchBinding", "matchRule", "ruleSpecificity"],
  "src/core/config.ts": ["loadConfigFile"],
  "src/core/refs.ts": ["formatRef", "resolveRef"],
  "src/core/settings.ts": ["defaultSetting", "effectiveSetting", "parseSetting", "settingKeys", "settingScopeError", "settingSpec"],
  "src/core/picker.ts": ["filterItems", "modelsOfProvider", "providerNames"],
};
const NO_FUNCTION = {
  "profiles.load": "discovery and inheritance run inside the extension's Runtime (src/adapter/), which needs a Pi session; this adapter maps no function onto them",
  "profiles.resolve": "resolution runs inside the extension's Runtime (src/adapter/runtime.ts) over state it loads for a Pi session; this adapter maps no function onto it",
  "profiles.session": "session scripts drive the extension's Pi hooks and commands; this adapter maps no function onto them",
  "profiles.config-edit": "config edits run in src/adapter/config-edit.ts against a Pi context; this adapter maps no function onto them",
};

/** The picker actions whose logic is in src/adapter/picker.ts (with Pi's UI), not the core. */
const PICKER_IN_ADAPTER = {
  window: "the visible rows for a terminal height are worked out in src/adapter/picker.ts, with Pi's UI; the core's visibleWindow takes them ready-made",
  pages: "the ten-item pages of the fallback picker are made in src/adapter/picker.ts, with Pi's UI",
  bind: "the bind flow's choices are made in src/adapter/picker.ts, with Pi's UI",
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

/** One key of the settings registry as the kit writes it, from the core's SettingSpec. */
function registryEntry(api, spec) {
  return {
    key: spec.key,
    values: spec.values ? [...spec.values] : null,
    setScopes: spec.setScope === "project" ? ["project"] : ["global", "project"],
    default: api.defaultSetting(spec.key) ?? null,
  };
}

/** `set KEY VALUE` in a scope: the core's parseSetting and settingScopeError, whose refusals
 * carry a message only; the code is the kit's for the condition the core checked. */
function parseSetting(api, spec, input) {
  if (input.scope == null || input.value == null) throw new Refusal("input-invalid", "parse needs scope and value");
  if (!spec.settable) throw new Refusal("setting-not-settable", `${spec.key} can only be removed`);
  const scopeError = api.settingScopeError(spec, input.scope);
  if (scopeError) throw new Refusal("setting-scope", scopeError);
  const parsed = api.parseSetting(input.key, input.value);
  if (!parsed.ok) throw new Refusal("setting-value-invalid", parsed.message);
  return { key: parsed.setting.spec.key, value: parsed.setting.value };
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
    "profiles.settings": async (input) => {
      const api = need([
        "defaultSetting", "effectiveSetting", "formatRef", "loadConfigFile", "parseSetting", "resolveRef", "settingKeys",
        "settingScopeError", "settingSpec",
      ]);
      if (input.action === "registry") {
        return { registry: api.settingKeys().map((key) => registryEntry(api, api.settingSpec(key))) };
      }
      const spec = input.key == null ? undefined : api.settingSpec(input.key);
      if (input.key == null) throw new Refusal("input-invalid", "key is required");
      if (!spec) throw new Refusal("setting-unknown", `unknown setting ${JSON.stringify(input.key)}`);
      if (input.action === "parse") return parseSetting(api, spec, input);
      const scopes = {
        global: input.global == null ? undefined : readConfig(api, JSON.stringify(input.global), "global").config,
        project: input.project == null ? undefined : readConfig(api, JSON.stringify(input.project), "project").config,
        projectActive: input.project != null,
      };
      const { value, origin } = api.effectiveSetting(scopes, spec.key);
      // a profile reference is written scope:id, as everywhere else in the kit's answers
      const parsed = spec.key === "defaultProfile" && typeof value === "string" && api.resolveRef(value, origin === "default" ? "global" : origin);
      return { key: spec.key, value: parsed ? api.formatRef(parsed) : (value ?? null), origin };
    },
    "profiles.picker": async (input) => {
      if (PICKER_IN_ADAPTER[input.action]) throw new Unsupported(PICKER_IN_ADAPTER[input.action]);
      const api = need(["filterItems", "modelsOfProvider", "providerNames"]);
      if (input.action === "providers") return { items: api.providerNames(input.models) };
      if (input.action === "models") {
        if (input.provider == null) throw new Refusal("input-invalid", "models needs provider");
        return { items: api.modelsOfProvider(input.models, input.provider).map((model) => model.id) };
      }
      const items = input.items.map((text) => ({ value: text, label: text }));
      return { items: api.filterItems(items, input.query ?? "").map((item) => item.value) };
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
