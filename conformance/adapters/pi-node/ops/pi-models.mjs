// models.json operations over Pi's own code.
//
// - pi.models-value: core/resolve-config-value.js (internal module: not exported publicly):
//   `isCommandConfigValue` and `getConfigValueEnvVarNames` say the value's form and the variables
//   it reads; `resolveConfigValueUncached` resolves it the way Pi does at request time (a command
//   runs every time; `resolveConfigValue` would serve a cached result for the process lifetime).
//   The process environment is the case's `env` over the sandbox's (see caseEnvironment).

import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ai, codingAgent, instance, internal, method, optionalImport } from "../pi.mjs";
import { Refusal, Unsupported } from "../errors.mjs";
import { removeTree, withEnv } from "../sandbox.mjs";

// internal module: core/resolve-config-value.js
const values = await internal("core/resolve-config-value.js");

/**
 * Variables for withEnv: the case's own over the sandbox's. The sandbox holds none of the user's
 * variables, only PATH (so a command finds its shell) and its own (HOME, TMPDIR, PI_OFFLINE, ...,
 * which keep Pi offline and inside the sandbox).
 */
export function caseEnvironment(baseEnv, env) {
  return { ...env };
}

export const operations = {
  "pi.models-value": async ({ value, env }, { sandbox }) =>
    withEnv(sandbox.baseEnv, caseEnvironment(sandbox.baseEnv, env), async () => {
      const form = values.isCommandConfigValue(value)
        ? "command"
        : values.getConfigValueEnvVarNames(value).length > 0
          ? "env"
          : "literal";
      return {
        form,
        variables: values.getConfigValueEnvVarNames(value),
        resolved: values.resolveConfigValueUncached(value, env) ?? null,
      };
    }),
};

// ---------------------------------------------------------------------------------------------
// pi.models-load, pi.models-auth, pi.models-available (chat)
//
// Pi's ModelRuntime (public export) is built the way ModelRuntime.create builds it, except that
// its built-in providers are the case's (`builtins`), made with pi-ai's own `createProvider` and
// `envApiKeyAuth` (public exports), instead of Pi's catalogue. models.json and auth.json are
// written to a temporary directory and read by Pi's ModelConfig and AuthStorage (internal
// modules core/model-config.js and core/auth-storage.js); runtime keys go through Pi's
// RuntimeCredentials (internal module core/runtime-credentials.js); models are kept in Pi's
// InMemoryCodingAgentModelsStore (internal module core/models-store.js). Offline mode is on.

// internal modules: core/model-config.js, core/auth-storage.js, core/runtime-credentials.js,
// core/models-store.js, core/provider-composer.js
// Namespaces, read at each use: a release without one of them answers `unsupported` (pi.mjs).
const modelConfig = await internal("core/model-config.js");
const authStorage = await internal("core/auth-storage.js");
const runtimeCredentials = await internal("core/runtime-credentials.js");
const modelsStore = await internal("core/models-store.js");
const providerComposer = await internal("core/provider-composer.js");

// The defaults Pi 1.6.0 applies to omitted `inputLimits.images.resize` fields. Pi keeps them in a
// constant of utils/image-resize-core.js that it does not export (DEFAULT_OPTIONS, merged as
// `{ ...DEFAULT_OPTIONS, ...options }` when an image is resized), so the four numbers are
// restated here, from that file.
const PI_IMAGE_RESIZE_DEFAULTS = { maxWidth: 2000, maxHeight: 2000, maxBytes: 4.5 * 1024 * 1024, jpegQuality: 80 };

/** A stand-in stream implementation: the adapter never sends a request. */
const NO_STREAM = {
  stream() {
    throw new Error("pi-node adapter: no requests are sent");
  },
  streamSimple() {
    throw new Error("pi-node adapter: no requests are sent");
  },
};

/**
 * A case's built-in provider as a pi-ai provider. Its models are completed with the same
 * defaults as a models.json model (the case format says so), its key comes from its `env`
 * variables through pi-ai's envApiKeyAuth.
 */
function builtinProvider(id, described) {
  if ((described.requiredEnv ?? []).length > 0) {
    throw new Unsupported("built-in providers with requiredEnv: Pi's own providers code that per provider");
  }
  const models = (described.models ?? []).map((m) => ({
    ...m,
    id: m.id,
    name: m.name ?? m.id,
    api: m.api ?? described.api,
    provider: id,
    baseUrl: m.baseUrl ?? described.baseUrl,
    reasoning: m.reasoning ?? false,
    input: m.input ?? ["text"],
    cost: m.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: m.contextWindow ?? 128000,
    maxTokens: m.maxTokens ?? 16384,
  }));
  return ai.createProvider({
    id,
    name: described.name ?? id,
    baseUrl: described.baseUrl ?? undefined,
    auth: { apiKey: ai.envApiKeyAuth(`${described.name ?? id} API key`, described.env ?? []) },
    models,
    api: NO_STREAM,
  });
}

/** Build Pi's ModelRuntime over the case's inputs; `fn(runtime, config)` runs with the case's env. */
async function withRuntime(input, sandbox, fn) {
  const dir = mkdtempSync(join(sandbox.root, "models-"));
  try {
    const modelsPath = join(dir, "models.json");
    if (input.modelsJsonText != null) writeFileSync(modelsPath, input.modelsJsonText);
    else if (input.modelsJson != null) writeFileSync(modelsPath, JSON.stringify(input.modelsJson));
    const authPath = join(dir, "auth.json");
    if (input.authJson && Object.keys(input.authJson).length > 0) writeFileSync(authPath, JSON.stringify(input.authJson));
    return await withEnv(sandbox.baseEnv, caseEnvironment(sandbox.baseEnv, input.env ?? {}), async () => {
      values.clearConfigValueCache();
      const credentials = new runtimeCredentials.RuntimeCredentials(method(authStorage.AuthStorage, "create", "AuthStorage.create").call(authStorage.AuthStorage, authPath));
      for (const [providerId, key] of Object.entries(input.runtimeKeys ?? {})) credentials.setRuntimeApiKey(providerId, key);
      const config = await modelConfig.ModelConfig.load(modelsPath);
      const providers = Object.entries(input.builtins ?? {}).map(([id, described]) => builtinProvider(id, described));
      const runtime = new codingAgent.ModelRuntime(
        credentials,
        config,
        modelsPath,
        new modelsStore.InMemoryCodingAgentModelsStore(),
        providers,
        false,
      );
      const checked = instance(runtime, "ModelRuntime");
      checked.configureRadiusProviders();
      checked.rebuildProviders();
      await checked.refresh({ allowNetwork: false });
      return await fn(checked, instance(config, "ModelConfig"));
    });
  } finally {
    removeTree(dir);
  }
}

const orNull = (value) => (value === undefined ? null : value);

// Cache warming came with pi-ai's getPromptCacheTtlMs (1.5.2): a release without it warms no
// model's cache in either tier, which is what its answer says.
const warms = "getPromptCacheTtlMs" in ai;

function modelOut(model) {
  const ttl = (tier) => warms && ai.getPromptCacheTtlMs(model, { cacheRetention: tier }) !== undefined;
  return {
    provider: model.provider,
    id: model.id,
    name: model.name,
    api: model.api,
    baseUrl: model.baseUrl,
    reasoning: model.reasoning,
    input: model.input,
    contextWindow: model.contextWindow,
    maxTokens: model.maxTokens,
    cost: model.cost,
    inputLimits: orNull(model.inputLimits),
    imageResize: { ...PI_IMAGE_RESIZE_DEFAULTS, ...(model.inputLimits?.images?.resize ?? {}) },
    promptCache: orNull(model.promptCache),
    cacheWarming: { short: ttl("short"), long: ttl("long") },
    thinkingLevelMap: orNull(model.thinkingLevelMap),
    samplingParams: orNull(model.samplingParams),
    samplingParamsByThinkingLevel: orNull(model.samplingParamsByThinkingLevel),
    compat: orNull(model.compat),
  };
}

/** Pi's models.json error text as issues: `Invalid models.json schema:` lists one `- path: message` per line. */
function fileIssues(configError) {
  if (!configError) return [];
  const text = configError.replace(/\n\nFile: [^\n]*$/, "");
  if (text.startsWith("Invalid models.json schema:")) {
    return text
      .split("\n")
      .slice(1)
      .map((line) => /^\s+- ([^:]*): (.*)$/.exec(line))
      .filter(Boolean)
      .map(([, path, message]) => ({ code: "models-json-schema", path, provider: null, message }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  return [{ code: "models-json-parse", path: "root", provider: null, message: text }];
}

const byId = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

operations["pi.models-load"] = async (input, { sandbox }) =>
  withRuntime(input, sandbox, async (runtime, config) => {
    const providers = runtime
      .getProviders()
      .map((p) => ({ id: p.id, name: p.name, baseUrl: orNull(p.baseUrl), models: runtime.getModels(p.id).map(modelOut) }))
      .sort((a, b) => byId(a.id, b.id));
    const composition = [...runtime.compositionErrors.entries()]
      .sort(([a], [b]) => byId(a, b))
      .map(([provider, message]) => ({ code: "provider-composition", path: null, provider, message }));
    return { providers, issues: [...fileIssues(config.getError()), ...composition] };
  });

/**
 * The suite's name for the credential source Pi configures a provider with, from Pi's auth
 * status (`runtime`, `stored`, models.json's `apiKey`, else what its availability check found),
 * or null. Pi's resolution itself labels runtime, auth.json and models.json keys of a built-in
 * provider alike ("stored credential"), so its auth status is what tells them apart.
 */
function sourceOf(runtime, config, providerId) {
  const status = runtime.getProviderAuthStatus(providerId);
  if (status.source === "runtime") return "runtime";
  if (status.source === "stored") return "auth.json";
  if (providerComposer.configuredRequestAuthStatus(config.getProvider(providerId), undefined) !== undefined) return "models.json";
  return status.configured ? "environment" : null;
}

/** Pi's auth error message as the suite's failure record. */
function failureOf(message) {
  const header = /header "([^"]+)"/.exec(message)?.[1];
  const variables = /from environment variables?: (.*)$/.exec(message)?.[1]?.split(", ");
  const command = /from shell command: (.*)$/s.exec(message)?.[1];
  return {
    code: header ? "header-unresolved" : "api-key-unresolved",
    ...(header ? { header } : {}),
    ...(variables ? { variables } : {}),
    ...(command !== undefined ? { command } : {}),
  };
}

operations["pi.models-auth"] = async (input, { sandbox }) =>
  withRuntime(input, sandbox, async (runtime, config) => {
    await runtime.getAvailable();
    const model = runtime.getModel(input.provider, input.model);
    // Pi has no model object to send a request with: ModelRuntime.getModel finds nothing.
    if (!model) throw new Refusal("model-unknown", `Pi finds no model ${input.provider}/${input.model}`);
    const source = sourceOf(runtime, config, input.provider);
    let resolution;
    try {
      // What ModelRuntime.prepareRequest does before a request: resolve the key and headers.
      resolution = await runtime.getAuth(model);
    } catch (error) {
      const message = error?.message ?? String(error);
      return { ok: false, source, apiKey: null, headers: {}, failure: failureOf(message), message };
    }
    if (!resolution) {
      return {
        ok: false,
        source: null,
        apiKey: null,
        headers: {},
        failure: { code: "auth-not-configured" },
        message: `Provider is not configured: ${input.provider}`,
      };
    }
    return {
      ok: true,
      source,
      apiKey: orNull(resolution.auth.apiKey),
      headers: resolution.auth.headers ?? {},
      failure: null,
      message: null,
    };
  });

/**
 * Classifier and image model listing (`input.type`): Pi's own built-in catalogue
 * (ModelRuntime.create, offline, with a fresh in-memory models store and the case's auth.json and
 * models.json), since classifier and image models come only from Pi's providers. Runtime keys are
 * set with ModelRuntime.setRuntimeApiKey.
 */
async function typedAvailability(input, sandbox) {
  const dir = mkdtempSync(join(sandbox.root, "models-"));
  try {
    const modelsPath = join(dir, "models.json");
    if (input.modelsJson != null) writeFileSync(modelsPath, JSON.stringify(input.modelsJson));
    const authPath = join(dir, "auth.json");
    if (Object.keys(input.authJson ?? {}).length > 0) writeFileSync(authPath, JSON.stringify(input.authJson));
    return await withEnv(sandbox.baseEnv, caseEnvironment(sandbox.baseEnv, input.env ?? {}), async () => {
      values.clearConfigValueCache();
      const created = await method(codingAgent.ModelRuntime, "create", "ModelRuntime.create").call(codingAgent.ModelRuntime, {
        authPath,
        modelsPath,
        modelsStore: new modelsStore.InMemoryCodingAgentModelsStore(),
        allowModelNetwork: false,
      });
      const runtime = instance(created, "ModelRuntime");
      for (const [providerId, key] of Object.entries(input.runtimeKeys ?? {})) await runtime.setRuntimeApiKey(providerId, key);
      await runtime.getAvailable();
      const available = await runtime.getAvailableOfType(input.type);
      const typedProviders = [...new Set(runtime.getModelsOfType(input.type).map((m) => m.provider))].sort(byId);
      const config = await modelConfig.ModelConfig.load(modelsPath);
      return {
        models: available.map((m) => ({ provider: m.provider, id: m.id })),
        sources: typedProviders.map((provider) => ({
          provider,
          source: available.some((m) => m.provider === provider) ? sourceOf(runtime, config, provider) : null,
        })),
      };
    });
  } finally {
    removeTree(dir);
  }
}

operations["pi.models-available"] = async (input, { sandbox }) => {
  if (input.type === "classifier" || input.type === "image") return typedAvailability(input, sandbox);
  return withRuntime(input, sandbox, async (runtime, config) => {
    const available = await runtime.getAvailable();
    return {
      models: available.map((m) => ({ provider: m.provider, id: m.id })).sort((a, b) => byId(a.provider, b.provider)),
      sources: runtime
        .getProviders()
        .map((p) => ({
          provider: p.id,
          source: runtime.getProviderAuthStatus(p.id).configured ? sourceOf(runtime, config, p.id) : null,
        }))
        .sort((a, b) => byId(a.provider, b.provider)),
    };
  });
};

// ---------------------------------------------------------------------------------------------
// pi.classifier-usage: pi-ai's `parseClassifierUsage` (public subpath export
// @earendil-works/pi-ai/api/classifier-shared), over the classifier model of Pi's built-in
// catalogue (`getBuiltinClassifierModel`, @earendil-works/pi-ai/providers/all) with the case's
// price, or none when the case gives none.

const classifierShared = await optionalImport("@earendil-works/pi-ai/api/classifier-shared");
const catalogue = await optionalImport("@earendil-works/pi-ai/providers/all");

operations["pi.classifier-usage"] = async (input) => {
  let model;
  const find = catalogue.getBuiltinClassifierModel; // outside the try: a release without it is unsupported
  try {
    model = find(input.provider, input.model);
  } catch {
    model = undefined;
  }
  if (!model) throw new Unsupported(`Pi's catalogue has no classifier ${input.provider}/${input.model}`);
  // The case's price is the model's whole price: `cost: null` is a model without one, priced at
  // zero (PI-CLASSIFIER-PRICE-INPUT), whatever price Pi's own catalogue carries.
  const priced = { ...model, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...(input.cost ?? {}) } };
  const usage = classifierShared.parseClassifierUsage(input.usage, priced);
  if (usage === undefined) return { usage: null };
  // The fields of the Usage of Pi's docs. Pi's calculateCost also marks `cost.totalFromProvider`, a
  // bookkeeping flag of its own that the Usage of Pi's docs does not have.
  const { input: tokensIn, output, cacheRead, cacheWrite, totalTokens, cost } = usage;
  return {
    usage: {
      input: tokensIn,
      output,
      cacheRead,
      cacheWrite,
      totalTokens,
      cost: { input: cost.input, output: cost.output, cacheRead: cost.cacheRead, cacheWrite: cost.cacheWrite, total: cost.total },
    },
  };
};

// ---------------------------------------------------------------------------------------------
// pi.classifier-catalogue: the classifier models of Pi's built-in providers
// (`builtinProviders()`, @earendil-works/pi-ai/providers/all), in Pi's order. Pi keeps the
// variables a provider reads inside its auth code, so the adapter asks that code: it runs the
// provider's own `auth.apiKey.resolve` with no credential and an environment in which no variable
// is set, and records every variable it looks up, in order. `login` is whether the provider has
// an OAuth login; `cost` is the model's catalogue price in the operation's Price fields.

operations["pi.classifier-catalogue"] = async (input, { sandbox }) =>
  withEnv(sandbox.baseEnv, {}, async () => {
    const models = [];
    for (const provider of catalogue.builtinProviders()) {
      const classifiers = (provider.getAllModels?.() ?? []).filter((m) => ai.isModelType(m, "classifier"));
      if (classifiers.length === 0) continue;
      const env = [];
      const ctx = {
        env: async (name) => {
          if (!env.includes(name)) env.push(name);
          return undefined;
        },
      };
      await provider.auth.apiKey?.resolve({ ctx, credential: undefined, signal: new AbortController().signal });
      for (const model of classifiers) {
        const cost = model.cost
          ? { input: model.cost.input, output: model.cost.output, cacheRead: model.cost.cacheRead, cacheWrite: model.cost.cacheWrite }
          : null;
        models.push({ provider: provider.id, id: model.id, type: "classifier", env: [...env], login: Boolean(provider.auth.oauth), cost });
      }
    }
    return { models };
  });

// ---------------------------------------------------------------------------------------------
// pi.models-sampling: the model as Pi's ModelRuntime composes it (see withRuntime), then pi-ai's
// `getSupportedThinkingLevels` and `clampThinkingLevel` (public exports) and `resolveSamplingParams`
// (public subpath export @earendil-works/pi-ai/api/simple-options), which clamps the level and
// merges the parameters as the request builders do. Pi calls resolveSamplingParams only in the
// request builders of the three APIs below (api/openai-completions.js, api/openai-responses.js,
// api/azure-openai-responses.js); a request of another API carries none.

const simpleOptions = await optionalImport("@earendil-works/pi-ai/api/simple-options");
const SAMPLING_APIS = ["openai-completions", "openai-responses", "azure-openai-responses"];

operations["pi.models-sampling"] = async (input, { sandbox }) =>
  withRuntime(input, sandbox, async (runtime) => {
    const model = runtime.getModel(input.provider, input.model);
    if (!model) throw new Refusal("model-unknown", `Pi finds no model ${input.provider}/${input.model}`);
    const level = input.thinkingLevel ?? "off";
    const params = SAMPLING_APIS.includes(model.api)
      ? simpleOptions.resolveSamplingParams(model, level, input.samplingParams ?? undefined)
      : undefined;
    return {
      thinkingLevel: ai.clampThinkingLevel(model, level),
      supportedLevels: ai.getSupportedThinkingLevels(model),
      samplingParams: orNull(params),
    };
  });
