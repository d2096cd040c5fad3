// Where the adapter finds each of Pi's functions.
//
// Public exports come from the packages' entry points. A function that Pi does not export
// publicly is imported from its internal module by a file URL resolved from the installed
// package (`internal(...)`), never copied: such imports are marked "internal module" where used.
//
// The release is the one pinned in this folder's package.json, or the one installed at
// `--release DIR` (with `--scope @mariozechner` for the earlier line), whose modules are found
// through release-hooks.mjs. Releases differ in what they have, so every namespace handed out
// here is checked: reading a name the release does not export, or using a module it does not
// have, throws `Unsupported` naming what is missing, which the adapter answers as `unsupported`
// for that operation, never as an error.

import { readFileSync } from "node:fs";
import { register } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Unsupported } from "./errors.mjs";

const CODING_AGENT = "@earendil-works/pi-coding-agent";
const AI = "@earendil-works/pi-ai";

function option(name) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const releaseDir = option("--release");
const scope = option("--scope") ?? "@earendil-works";
const packageDir = releaseDir
  ? join(resolve(releaseDir), "node_modules", scope, "pi-coding-agent")
  : join(import.meta.dirname, "node_modules", "@earendil-works", "pi-coding-agent");
if (releaseDir) {
  register("./release-hooks.mjs", import.meta.url, {
    data: {
      adapterBase: new URL("./", import.meta.url).href,
      parentURL: pathToFileURL(join(packageDir, "package.json")).href,
      scope,
    },
  });
}

/** The installed coding-agent version, from its package.json. */
export const PI_VERSION = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf-8")).version;

/** `what`'s namespace, every read of a name it lacks throwing `Unsupported`. */
function checked(namespace, what) {
  return new Proxy(namespace, {
    get(target, name) {
      if (typeof name === "symbol" || name === "then" || name in target) return target[name];
      throw new Unsupported(`Pi ${PI_VERSION} has no export ${String(name)} in ${what}`);
    },
  });
}

/** A stand-in for a module the release lacks: any read throws `Unsupported` saying why. */
function absent(what, error) {
  const missing = error?.code === "ERR_MODULE_NOT_FOUND" || error?.code === "ERR_PACKAGE_PATH_NOT_EXPORTED";
  const why = missing ? "has no" : "cannot load";
  const detail = missing ? "" : ` (${error?.message ?? error})`;
  return new Proxy({}, {
    get(_target, name) {
      if (typeof name === "symbol" || name === "then") return undefined;
      throw new Unsupported(`Pi ${PI_VERSION} ${why} ${what}${detail}`);
    },
    has() {
      return false;
    },
  });
}

/**
 * The checked namespace of `specifier` (a package or a subpath such as
 * `@earendil-works/pi-ai/api/simple-options`), or a stand-in when the release has no such module.
 */
export async function optionalImport(specifier, what = `module ${specifier.replace(/^@earendil-works\//, `${scope}/`)}`) {
  try {
    return checked(await import(specifier), what);
  } catch (error) {
    return absent(what, error);
  }
}

/** Pi's coding-agent package (public exports). */
export const codingAgent = checked(await import(CODING_AGENT), `module ${scope}/pi-coding-agent`);
/** Pi's AI package (public exports). */
export const ai = checked(await import(AI), `module ${scope}/pi-ai`);

const distURL = pathToFileURL(join(packageDir, "dist") + "/");

/**
 * Import an internal module of the coding-agent package, `relative` to its `dist/` folder (for
 * example `core/prompt-templates.js`), by file URL: its checked namespace, or a stand-in when the
 * release has no such module.
 */
export function internal(relative) {
  return (async () => {
    try {
      return checked(await import(new URL(`./${relative}`, distURL).href), `internal module ${relative}`);
    } catch (error) {
      return absent(`internal module ${relative}`, error);
    }
  })();
}

/**
 * `owner[name]` when it is a function, else `Unsupported` naming `what` (`ModelRuntime.create`):
 * for methods of Pi's classes, which a release may not have.
 */
export function method(owner, name, what) {
  const found = owner?.[name];
  if (typeof found !== "function") throw new Unsupported(`Pi ${PI_VERSION} has no ${what}`);
  return found;
}

/**
 * `object` (an instance of one of Pi's classes, named `what`) seen through a check: calling a
 * method it lacks throws `Unsupported` naming it; its own methods run on the object itself.
 */
export function instance(object, what) {
  return new Proxy(object, {
    get(target, name) {
      if (typeof name === "symbol" || name === "then" || name in target) {
        const value = Reflect.get(target, name, target);
        return typeof value === "function" ? value.bind(target) : value;
      }
      throw new Unsupported(`Pi ${PI_VERSION} has no ${what}.${String(name)}`);
    },
  });
}
