// Importing a checkout's modules and looking up the names an operation needs.
//
// `importModules(checkout, files)` imports each of `files` (paths inside the checkout) and keeps
// what each exports, or why it could not be imported. `requires(loaded, names)` gives the named
// exports, or throws `Unsupported` naming the ones the checkout lacks (and, for each, why the
// module expected to hold it did not load). When the checkout folder is missing, or none of the
// files loads, the adapter cannot start: `StartFailure`, exit code 3. `loadOperations` puts these
// together for one area's module.

import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { StartFailure, Unsupported } from "../pi-node/errors.mjs";

/** The checkout's absolute path; `StartFailure` when it is not a folder. */
export function checkoutFolder(path, what) {
  if (!path) throw new StartFailure(`no checkout given: name the folder of ${what} (ADAPTER:PATH)`);
  const folder = resolve(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new StartFailure(`no checkout of ${what} at ${folder}: the folder does not exist`);
  }
  return folder;
}

/** `{ exports: {name: value}, origin: {name: file}, failures: {file: reason} }` for `files`. */
export async function importModules(folder, files, what) {
  const loaded = { folder, exports: {}, origin: {}, failures: {} };
  for (const file of files) {
    const path = join(folder, file);
    if (!existsSync(path)) {
      loaded.failures[file] = "the file does not exist";
      continue;
    }
    try {
      const namespace = await import(pathToFileURL(path).href);
      for (const [name, value] of Object.entries(namespace)) {
        if (!(name in loaded.exports)) {
          loaded.exports[name] = value;
          loaded.origin[name] = file;
        }
      }
    } catch (error) {
      loaded.failures[file] = `cannot import it: ${String(error?.message ?? error).split("\n")[0]}`;
    }
  }
  if (Object.keys(loaded.exports).length === 0) {
    const reasons = files.map((file) => `${file}: ${loaded.failures[file]}`).join("; ");
    throw new StartFailure(`the checkout of ${what} at ${folder} has none of the modules the adapter reads (${reasons})`);
  }
  return loaded;
}

/** The exports `names` of `loaded` as an object; `Unsupported` naming the missing ones, where
 * `expected` maps a name to the file that should hold it (named once, with why it did not load). */
export function requires(loaded, names, expected = {}) {
  const missing = names.filter((name) => !(name in loaded.exports));
  if (missing.length) {
    const byFile = new Map();
    for (const name of missing) {
      const file = loaded.failures[expected[name]] ? expected[name] : null;
      byFile.set(file, [...(byFile.get(file) ?? []), name]);
    }
    const parts = [...byFile].map(([file, group]) =>
      file ? `${group.join(", ")} (${file}: ${loaded.failures[file]})` : group.join(", "),
    );
    throw new Unsupported(`the checkout at ${loaded.folder} does not export ${parts.join("; ")}`);
  }
  return Object.fromEntries(names.map((name) => [name, loaded.exports[name]]));
}

/**
 * An area's operations over the checkout at `path`. `modules`: `{file: [export names]}` to read;
 * `build(need)`: the operation handlers, where `need(names)` gives those exports or throws
 * `Unsupported`; `noFunction`: `{op: reason}` for the operations the extension has no function
 * for. `StartFailure` when the checkout cannot be read.
 */
export async function loadOperations({ path, what, modules, build, noFunction }) {
  const folder = checkoutFolder(path, what);
  const loaded = await importModules(folder, Object.keys(modules), what);
  const expected = Object.fromEntries(
    Object.entries(modules).flatMap(([file, names]) => names.map((name) => [name, file])),
  );
  const operations = {
    "kit.echo": async (input) => ({ value: input.value ?? null }),
    ...build((names) => requires(loaded, names, expected)),
  };
  for (const [op, reason] of Object.entries(noFunction)) {
    operations[op] = async () => {
      throw new Unsupported(reason);
    };
  }
  return operations;
}
