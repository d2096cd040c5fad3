// Pi packages over Pi's own package manager (DefaultPackageManager, public export).
//
// - pi.package-source: `parseSource` and `getPackageIdentity`; a local source's path is resolved
//   from its settings file's directory with `getBaseDirForScope` and `resolvePathFromBase`.
// - pi.packages-resolve: `DefaultPackageManager.resolve()` over an in-memory settings storage that
//   holds the case's personal and project `packages` lists, with Pi's project trust set as the
//   case says; offline mode is on, so nothing is installed. Per-declaration records come from
//   Pi's `dedupePackages`, `findAutoloadDeltaBase` and `getInstalledPath`; host-provided
//   dependency warnings from DefaultResourceLoader's reload (public export), which is where Pi
//   computes them.

import { isAbsolute, resolve } from "node:path";
import { codingAgent } from "../pi.mjs";
import { withEnv } from "../sandbox.mjs";
import { fromRoot, inTree } from "./pi-templates.mjs";

const RESOURCE_TYPES = ["extensions", "skills", "prompts", "themes"];

function packageManager({ cwd, agentDir, settingsManager }) {
  return new codingAgent.DefaultPackageManager({
    cwd,
    agentDir,
    settingsManager: settingsManager ?? codingAgent.SettingsManager.inMemory({}, { projectTrusted: true }),
  });
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
