// Pi packages over Pi's own package manager (DefaultPackageManager, public export).
//
// - pi.package-source: `parseSource` and `getPackageIdentity`; a local source's path is resolved
//   from its settings file's directory with `getBaseDirForScope` and `resolvePathFromBase`.
// - pi.packages-resolve: `DefaultPackageManager.resolve()` over an in-memory settings storage that
//   holds the case's personal and project `packages` lists and settings-level resource lists, with Pi's project trust set as the
//   case says; offline mode is on, so nothing is installed. Per-declaration records come from
//   Pi's `dedupePackages`, `findAutoloadDeltaBase` and `getInstalledPath`; host-provided
//   dependency warnings from DefaultResourceLoader's reload (public export), which is where Pi
//   computes them.

import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { codingAgent, instance, internal, method } from "../pi.mjs";
import { removeTree, withEnv } from "../sandbox.mjs";
import { fromRoot, inTree } from "./pi-templates.mjs";

// internal module: core/settings-manager.js (InMemorySettingsStorage is not exported publicly)
const settingsModule = await internal("core/settings-manager.js");

const RESOURCE_TYPES = ["extensions", "skills", "prompts", "themes"];

function packageManager({ cwd, agentDir, settingsManager }) {
  const pm = new codingAgent.DefaultPackageManager({
    cwd,
    agentDir,
    settingsManager: settingsManager ?? codingAgent.SettingsManager.inMemory({}, { projectTrusted: true }),
  });
  return instance(pm, "DefaultPackageManager");
}

/** HOME for `~` in local paths: the case's `home`, else the sandbox's own (never the user's). */
function homeVariables(home, sandbox) {
  return { HOME: home ?? sandbox.home };
}

function sourceRecord(pm, source, scope) {
  const parsed = pm.parseSource(source);
  const out = {
    type: parsed.type,
    identity: pm.getPackageIdentity(source, scope),
    pinned: Boolean(parsed.pinned),
    name: null,
    version: null,
    host: null,
    path: null,
    ref: null,
    repo: null,
    localPath: null,
  };
  if (parsed.type === "npm") Object.assign(out, { name: parsed.name, version: parsed.version ?? null });
  else if (parsed.type === "git") {
    Object.assign(out, { host: parsed.host, path: parsed.path, ref: parsed.ref ?? null, repo: parsed.repo });
  } else out.localPath = pm.resolvePathFromBase(parsed.path, pm.getBaseDirForScope(scope));
  return out;
}

export const operations = {
  "pi.package-source": async (input, { sandbox }) =>
    withEnv(sandbox.baseEnv, homeVariables(input.home, sandbox), async () => {
      const pm = packageManager({ cwd: input.cwd, agentDir: input.agentDir });
      return sourceRecord(pm, input.source, input.scope);
    }),
};

/** One settings file of the case: its `packages` and its settings-level resource lists. */
function settingsFile(settings) {
  const out = { packages: settings?.packages ?? [] };
  for (const type of RESOURCE_TYPES) if (settings?.[type] != null) out[type] = settings[type];
  return out;
}

/** A settings manager holding the case's two settings files, with Pi's trust flag. */
function settingsFor(input) {
  const storage = new settingsModule.InMemorySettingsStorage();
  storage.withLock("global", () => JSON.stringify(settingsFile(input.personalSettings)));
  storage.withLock("project", () => JSON.stringify(settingsFile(input.projectSettings)));
  return codingAgent.SettingsManager.fromStorage(storage, { projectTrusted: input.trusted });
}

/** Pi's resource record as the suite's: packages keep their source; a settings list (Pi's
 * `source: "local"`, origin `top-level`) has none. Auto-discovered folders are not reported. */
function resourceRecord(r) {
  const fromPackage = r.metadata.origin === "package";
  return { path: r.path, source: fromPackage ? r.metadata.source : null, scope: r.metadata.scope, origin: fromPackage ? "package" : "settings" };
}

function reported(r) {
  return r.metadata.origin === "package" || (r.metadata.origin === "top-level" && r.metadata.source === "local");
}

/** Pi's per-declaration view: which entries its dedupe keeps, and where each one loads from. */
async function declarationRecords(pm, settingsManager) {
  const project = (settingsManager.getProjectSettings().packages ?? []).map((pkg) => ({ pkg, scope: "project" }));
  const personal = (settingsManager.getGlobalSettings().packages ?? []).map((pkg) => ({ pkg, scope: "user" }));
  const all = [...project, ...personal];
  const kept = pm.dedupePackages(all);
  const records = [];
  for (const entry of all) {
    const source = pm.getPackageSourceString(entry.pkg);
    const identity = pm.getPackageIdentity(source, entry.scope);
    const type = pm.parseSource(source).type;
    let status;
    let root = null;
    if (kept.includes(entry)) {
      const base = pm.findAutoloadDeltaBase(entry.pkg, entry.scope, kept);
      const loadSource = base?.source ?? source;
      const loadScope = base?.scope ?? entry.scope;
      root = pm.getInstalledPath(loadSource, loadScope) ?? null;
      // An npm install counts only when its package.json has a version that satisfies the
      // declared one (Pi's own check); otherwise Pi would install it, and offline it skips it.
      const parsed = pm.parseSource(loadSource);
      if (root && parsed.type === "npm" && !(await pm.installedNpmMatchesConfiguredVersion(parsed, root))) root = null;
      status = root ? "loaded" : type === "local" ? "missing" : "not-installed";
    } else {
      // Dropped by Pi's dedupe: a personal entry whose identity a project entry took, or a
      // second entry of one identity in the same file.
      const winner = kept.find((k) => pm.getPackageIdentity(pm.getPackageSourceString(k.pkg), k.scope) === identity);
      status = winner && winner.scope !== entry.scope ? "replaced" : "duplicate";
    }
    records.push({ source, scope: entry.scope, identity, type, status, root });
  }
  return records;
}

const HOST_DEPENDENCIES_WARNING = /^Host-provided extension packages must be declared in peerDependencies with a "\*" range, not dependencies: (.*?)\. /;

operations["pi.packages-resolve"] = async (input, { root, sandbox }) => {
  const agentDir = inTree(root, input.agentDir, "agentDir");
  const cwd = inTree(root, input.cwd, "cwd");
  const home = input.home == null ? sandbox.home : inTree(root, input.home, "home");
  return withEnv(sandbox.baseEnv, { HOME: home }, async () => {
    const settingsManager = settingsFor(input);
    const pm = packageManager({ cwd, agentDir, settingsManager });
    const packages = await declarationRecords(pm, settingsManager);

    const resolved = await pm.resolve();
    const resources = {};
    const disabled = {};
    const byPath = (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    for (const type of RESOURCE_TYPES) {
      const shown = resolved[type].filter(reported);
      resources[type] = shown.filter((r) => r.enabled).map(resourceRecord).sort(byPath);
      disabled[type] = shown.filter((r) => !r.enabled).map(resourceRecord).sort(byPath);
    }

    // Pi computes the host-provided dependency warning while it loads a session's extensions.
    const loader = instance(new codingAgent.DefaultResourceLoader({
      cwd,
      agentDir,
      settingsManager: settingsFor(input),
      noSkills: true,
      noPromptTemplates: true,
      noThemes: true,
      noContextFiles: true,
    }), "DefaultResourceLoader");
    await loader.reload();
    const warnings = [];
    for (const warning of loader.getExtensions().warnings ?? []) {
      const match = HOST_DEPENDENCIES_WARNING.exec(warning.warning ?? "");
      if (!match) continue;
      const packageRoot = warning.path.replace(/[\\/]package\.json$/, "");
      const owner = resolved.extensions.find((r) => r.metadata.packageRoot === packageRoot)?.metadata;
      warnings.push({
        code: "host-provided-dependency",
        path: warning.path,
        dependencies: match[1].split(", "),
        message: warning.warning,
        source: owner?.source ?? null,
        scope: owner?.scope ?? null,
      });
    }
    return { packages, resources, disabled, warnings, diagnostics: [] };
  });
};

// ---------------------------------------------------------------------------------------------
// pi.package-changelog: the package is declared as a local source in the personal settings of a
// scratch agent folder and loaded by DefaultResourceLoader (public export), which resolves it
// through DefaultPackageManager, so its extensions carry the changelog file Pi's
// resolvePackageChangelogPath found (`sourceInfo.changelogPath`; that function itself is not
// exported). What a fresh launch shows and records is InteractiveMode's own
// getExtensionChangelogUpdates (public export InteractiveMode), run on a stand-in whose session
// has no messages, whose resource loader is the one above and whose settings hold the case's
// last seen version; `shown` are the versions of the entry headings in its update.

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

operations["pi.package-changelog"] = async (input, { root, sandbox }) => {
  const packageRoot = inTree(root, input.package, "package");
  const scratch = mkdtempSync(join(sandbox.root, "changelog-"));
  try {
    return await withEnv(sandbox.baseEnv, { HOME: sandbox.home }, async () => {
      const settings = { packages: [packageRoot] };
      const settingsManager = codingAgent.SettingsManager.inMemory(settings, { projectTrusted: false });
      const loader = instance(new codingAgent.DefaultResourceLoader({
        cwd: scratch,
        agentDir: scratch,
        settingsManager,
        noSkills: true,
        noPromptTemplates: true,
        noThemes: true,
        noContextFiles: true,
      }), "DefaultResourceLoader");
      await loader.reload();
      const extensions = loader.getExtensions().extensions.filter((e) => e.sourceInfo?.origin === "package");
      const changelog = extensions.find((e) => e.sourceInfo.changelogPath)?.sourceInfo.changelogPath ?? null;
      let recorded = null;
      const standIn = {
        session: { state: { messages: [] }, resourceLoader: loader },
        settingsManager: {
          getExtensionChangelogVersion: () => input.lastSeenVersion ?? undefined,
          setExtensionChangelogVersion: (_key, version) => {
            recorded = version;
          },
        },
        readPackageJson: method(codingAgent.InteractiveMode.prototype, "readPackageJson", "InteractiveMode.readPackageJson"),
      };
      const updates = method(codingAgent.InteractiveMode.prototype, "getExtensionChangelogUpdates",
        "InteractiveMode.getExtensionChangelogUpdates").call(standIn);
      const shown = [];
      for (const update of updates) {
        const heading = new RegExp(`^## ${escapeRegExp(update.name)} \\[?(\\d+\\.\\d+\\.\\d+)`);
        for (const line of update.markdown.split("\n")) {
          const match = heading.exec(line);
          if (match) shown.push(match[1]);
        }
      }
      return { changelog, shown, recorded };
    });
  } finally {
    removeTree(scratch);
  }
};
