// Keeps Pi away from everything of the user's while the adapter runs.
//
// - HOME (and USERPROFILE), TMPDIR and Pi's agent directory (PI_CODING_AGENT_DIR) point into a
//   fresh temporary directory, removed at exit; nothing outside it is written. Its name carries
//   the process id (`pi-conformance-pi-node-<pid>-XXXXXX`), so that the next start removes the
//   sandboxes of adapters that were killed outright (SIGKILL leaves no time to clean up).
// - Offline mode is on (PI_OFFLINE=1), the version check and install telemetry are off.
// - The user's environment variables are removed, except PATH (so a models.json `!command` of a
//   case can find its shell) and the temporary-directory variables; cases that need variables
//   pass them as input, and handlers set them only for the duration of one call (withEnv).
// - Outgoing network connections are refused: every socket connect and DNS lookup throws.
// - A command Pi runs (a models.json `!command` value, through child_process.execSync) runs
//   contained, as the kit runs the reference's (conformance/corpus/shell.py): in a scratch folder of its
//   own, removed afterwards, with no standard input, and where the system allows it in new user,
//   network and process namespaces (`unshare`: no network, and every process it started ends
//   with it); elsewhere in a process group of its own that is killed when it ends. Pi's code that
//   decides what to run and what its output means is Pi's own; only the process is contained.

import dns from "node:dns";
import childProcess, { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const KEPT_VARIABLES = new Set(["PATH", "Path", "TMPDIR", "TEMP", "TMP", "SystemRoot", "SYSTEMROOT", "ComSpec", "COMSPEC"]);

function refuseNetwork() {
  const refuse = (what) => () => {
    throw new Error(`pi-node adapter runs offline: ${what} refused`);
  };
  net.Socket.prototype.connect = refuse("network connection");
  dns.lookup = refuse("DNS lookup");
  dns.resolve = refuse("DNS lookup");
  dns.promises.lookup = refuse("DNS lookup");
  dns.promises.resolve = refuse("DNS lookup");
  globalThis.fetch = async () => {
    throw new Error("pi-node adapter runs offline: fetch refused");
  };
}

const SANDBOX_PREFIX = "pi-conformance-pi-node-";

const NAMESPACES = ["--net", "--pid", "--fork", "--kill-child"];

/** The argument list that runs a command in new user, network and process namespaces, or null. */
function isolation() {
  if (process.platform === "win32") return null;
  for (const user of [["--user", "--map-current-user"], ["--user", "--map-root-user"]]) {
    const prefix = ["unshare", ...user, ...NAMESPACES, "--"];
    const probe = spawnSync(prefix[0], [...prefix.slice(1), "/bin/sh", "-c", "exit 0"], { stdio: "ignore", timeout: 10000 });
    if (probe.status === 0) return prefix;
  }
  return null;
}

/** Replace child_process.execSync (Pi's way of running a `!command`) by a contained one. */
function containCommands(tmp) {
  if (process.platform === "win32") return;
  const prefix = isolation();
  const run = spawnSync;
  childProcess.execSync = function execSync(command, options = {}) {
    const scratch = mkdtempSync(join(tmp, "command-"));
    try {
      const argv = [...(prefix ?? []), "/bin/sh", "-c", String(command)];
      const result = run(argv[0], argv.slice(1), {
        cwd: scratch,
        env: options.env ?? process.env,
        input: options.input,
        stdio: options.stdio ?? ["ignore", "pipe", "pipe"],
        timeout: options.timeout,
        killSignal: "SIGKILL",
        encoding: options.encoding,
        maxBuffer: options.maxBuffer ?? 1024 * 1024,
        detached: prefix === null,
      });
      if (prefix === null && result.pid) {
        try {
          process.kill(-result.pid, "SIGKILL"); // what it left running in the background
        } catch {
          // the group is gone
        }
      }
      if (result.error) throw result.error;
      if (result.status !== 0) {
        const error = new Error(`Command failed: ${command}`);
        Object.assign(error, { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr });
        throw error;
      }
      return result.stdout;
    } finally {
      removeTree(scratch);
    }
  };
  syncBuiltinESMExports();
}

/**
 * Remove `path` and everything under it, links removed and never followed; never throws. Node's
 * own recursive removal recurses (a folder a few thousand levels deep overflows its stack) and
 * gives up on a folder without permissions, so where it fails the system's `chmod -R` and `rm -rf`
 * (which walk any depth) finish the work: a leftover never stops a later start.
 */
export function removeTree(path) {
  try {
    rmSync(path, { recursive: true, force: true });
    return;
  } catch {
    // below
  }
  if (process.platform === "win32") return;
  spawnSync("chmod", ["-R", "u+rwx", "--", path], { stdio: "ignore" });
  spawnSync("rm", ["-rf", "--", path], { stdio: "ignore" });
}

function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM"; // alive, but another user's
  }
}

/** Remove the sandboxes in `folder` left by adapter processes that no longer run. */
function removeLeftovers(folder) {
  let names = [];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const match = new RegExp(`^${SANDBOX_PREFIX}(\\d+)-`).exec(name);
    if (match && Number(match[1]) !== process.pid && !running(Number(match[1]))) {
      removeTree(join(folder, name));
    }
  }
}

/**
 * Enter the sandbox. Returns `{ root, home, agentDir, baseEnv, cleanup() }`; `baseEnv` is the
 * environment every call starts from.
 */
export function enterSandbox() {
  removeLeftovers(tmpdir());
  const root = mkdtempSync(join(tmpdir(), `${SANDBOX_PREFIX}${process.pid}-`));
  const home = join(root, "home");
  const agentDir = join(home, ".pi", "agent");
  const tmp = join(root, "tmp");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(tmp);

  for (const name of Object.keys(process.env)) {
    if (!KEPT_VARIABLES.has(name)) delete process.env[name];
  }
  Object.assign(process.env, {
    HOME: home,
    USERPROFILE: home,
    PI_CODING_AGENT_DIR: agentDir,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    // Temporary files of Pi and its libraries (jiti's transpile cache is off) stay in here too.
    TMPDIR: tmp,
    TEMP: tmp,
    TMP: tmp,
    JITI_FS_CACHE: "false",
    npm_config_offline: "true",
    GIT_TERMINAL_PROMPT: "0",
  });
  const baseEnv = { ...process.env };
  refuseNetwork();
  containCommands(tmp);

  let cleaned = false;
  const cleanup = () => {
    if (cleaned) return;
    cleaned = true;
    removeTree(root);
  };
  process.on("exit", cleanup);
  // Killed politely (the kit stops an adapter that overran its time): clean up, then go.
  for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130], ["SIGHUP", 129]]) {
    process.on(signal, () => {
      cleanup();
      process.exit(code);
    });
  }
  return { root, home, agentDir, baseEnv, cleanup };
}

/**
 * Run `fn` with the process environment set to `baseEnv` plus `variables` (name -> string; a
 * null value leaves the name unset), then restore `baseEnv`, also when `fn` throws.
 */
export async function withEnv(baseEnv, variables, fn) {
  const reset = () => {
    for (const name of Object.keys(process.env)) if (!(name in baseEnv)) delete process.env[name];
    Object.assign(process.env, baseEnv);
  };
  reset();
  for (const [name, value] of Object.entries(variables ?? {})) {
    if (value === null || value === undefined) delete process.env[name];
    else process.env[name] = String(value);
  }
  try {
    return await fn();
  } finally {
    reset();
  }
}
