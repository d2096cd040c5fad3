// The envelope operations over a checkout of `@luan.sh/pi-developer-messages` (the package folder
// `harnesses/pi/agent/packages/pi-developer-messages` of luan/agents).
//
// Its modules are read one by one, as the package README's layout table names them, so a module
// that cannot load (one needing a workspace package the checkout lacks) leaves the others usable.
// Each operation names the exports it calls; a checkout without one answers `unsupported`.
// Registries live on globalThis (the extension's design), so each call empties the contribution
// registry first: no case sees another's contributions.

import { posix, win32 } from "node:path";
import { Refusal, Unsupported } from "../pi-node/errors.mjs";
import { loadOperations } from "./checkout.mjs";
import { contentFunction } from "./content.mjs";

export const WHAT = "@luan.sh/pi-developer-messages";

const MODULES = {
  "src/developer-messages.ts": [
    "composeDeveloperMessages",
    "getDeveloperMessageContributionRegistry",
    "registerDeveloperMessageContribution",
  ],
  "src/provider-instructions.ts": ["buildProviderInstructions"],
  "src/context-messages.ts": ["injectAgentsContext", "renderAgentsContext"],
  "src/audit-entries.ts": ["removePromptAuditMessages"],
};
const NO_FUNCTION = {
  "envelope.build":
    "the extension builds a whole envelope only inside its before_agent_start hook and its envelope service, whose environment message reads this process's clock and $SHELL instead of the case's host",
  "envelope.session": "session scripts drive the extension's Pi hooks; this adapter maps no function onto them",
  "envelope.settings":
    "the audit setting is read through @luan.sh/pi-xsettings (src/contributions/xsettings.ts), which exports no function that parses or writes the setting's TOML",
};

/** What the extension would read from the process, taken from the case's `host` instead: the
 * shell is the base name `node:path` gives on the host's platform (win32 splits at `\` too). */
function environmentOf(host, activeTools) {
  const basename = host.platform === "win32" ? win32.basename : posix.basename;
  const shell = basename(host.shell || host.comSpec || "unknown");
  if (activeTools.includes("exec_command") && shell.toLowerCase() === "fish") {
    throw new Unsupported(
      "with exec_command active and fish as the login shell, the extension picks the shell from this machine's process.platform and /bin, not from the case's host",
    );
  }
  return { currentDate: host.date, timezone: host.timezone || "unknown", shell };
}

/** Register `specs` in order into an emptied registry; `[{index, code}]` for each refused. */
function registerAll(api, specs) {
  api.getDeveloperMessageContributionRegistry().clear();
  const refused = [];
  specs.forEach((spec, index) => {
    const contribution = {
      id: spec.id,
      priority: spec.priority ?? 0,
      content: contentFunction(spec.content ?? null),
    };
    if (spec.providers != null) contribution.providers = spec.providers;
    if (spec.activeTools != null) contribution.activeTools = spec.activeTools;
    try {
      api.registerDeveloperMessageContribution(contribution);
    } catch {
      // The extension's one refusal is a contribution without an id (blank or absent).
      refused.push({ index, code: "contribution-id-blank" });
    }
  });
  return refused;
}

function compose(api, context, cwd, environment) {
  try {
    return api.composeDeveloperMessages(context, cwd, environment);
  } catch (error) {
    throw new Refusal("build-failed", `System prompt build failed: ${error?.message ?? error}`);
  }
}

function renderContext(api, contextFiles, cwd, agentDir) {
  return api.renderAgentsContext(contextFiles, cwd, agentDir ?? undefined);
}

function operationsOver(need) {
  return {
    "envelope.instructions": async (input) => {
      const api = need(["buildProviderInstructions"]);
      const options = { customPrompt: input.customPrompt ?? undefined, appendSystemPrompt: input.appendSystemPrompt ?? undefined };
      return { providerInstructions: api.buildProviderInstructions(options, input.systemPrompt ?? undefined) };
    },
    "envelope.environment": async (input) => {
      const api = need(["composeDeveloperMessages", "getDeveloperMessageContributionRegistry"]);
      api.getDeveloperMessageContributionRegistry().clear();
      const context = { activeTools: input.activeTools, sessionId: "session-1", prompt: "", systemPromptOptions: {} };
      const messages = compose(api, context, input.cwd, environmentOf(input.host, input.activeTools));
      const last = messages.at(-1);
      return { id: last.id, content: last.content };
    },
    "envelope.developer-messages": async (input) => {
      const api = need(["composeDeveloperMessages", "getDeveloperMessageContributionRegistry", "registerDeveloperMessageContribution"]);
      const environment = environmentOf(input.host, input.activeTools);
      const refused = registerAll(api, input.contributions);
      const context = {
        provider: input.provider ?? undefined,
        activeTools: input.activeTools,
        sessionId: input.sessionId,
        prompt: input.prompt,
        systemPromptOptions: input.systemPromptOptions,
      };
      const messages = compose(api, context, input.cwd, environment);
      return { messages: messages.map(({ id, content }) => ({ id, content })), refused };
    },
    "envelope.context-message": async (input) => {
      const api = need(["injectAgentsContext", "renderAgentsContext"]);
      const content = renderContext(api, input.contextFiles, input.cwd, input.agentDir);
      return { message: content ? api.injectAgentsContext([], content)[0] : null };
    },
    "envelope.context-hook": async (input) => {
      // The extension's `context` hook: audit copies out, then the context-files message first.
      const api = need(["injectAgentsContext", "removePromptAuditMessages", "renderAgentsContext"]);
      const content = renderContext(api, input.contextFiles, input.cwd, input.agentDir);
      const withoutAudit = api.removePromptAuditMessages(input.messages);
      const messages = api.injectAgentsContext(withoutAudit ?? input.messages, content) ?? withoutAudit;
      return { messages: messages ?? input.messages };
    },
  };
}

/** The operations over the checkout at `path`; `StartFailure` when it cannot be read. */
export function load(path) {
  return loadOperations({ path, what: WHAT, modules: MODULES, build: operationsOver, noFunction: NO_FUNCTION });
}
