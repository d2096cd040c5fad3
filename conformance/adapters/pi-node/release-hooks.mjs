// Module resolution hooks for a release installed outside this folder (`--release DIR`).
//
// The adapter's own modules import Pi as `@earendil-works/pi-coding-agent` and
// `@earendil-works/pi-ai` (with subpaths). When the kit runs another release, those specifiers,
// and only those written in this folder, are resolved from the release's installed
// `pi-coding-agent` package (so a `pi-ai` nested inside it wins over a hoisted one), under the
// release's npm scope (`@mariozechner` for the earlier line). Pi's own modules resolve their
// imports inside the release's folder as usual.

const PI_PACKAGE = /^@earendil-works\/(pi-coding-agent|pi-ai)(\/.*)?$/;

let adapterBase;
let parentURL;
let scope;

/** `data`: `{ adapterBase, parentURL, scope }`, file URLs of this folder and of the release's
 * `pi-coding-agent/package.json`, and the release's scope. */
export async function initialize(data) {
  ({ adapterBase, parentURL, scope } = data);
}

export async function resolve(specifier, context, nextResolve) {
  const match = PI_PACKAGE.exec(specifier);
  const fromAdapter = context.parentURL?.startsWith(adapterBase) && !context.parentURL.includes("/node_modules/");
  if (match && fromAdapter) {
    return nextResolve(`${scope}/${match[1]}${match[2] ?? ""}`, { ...context, parentURL });
  }
  return nextResolve(specifier, context);
}
