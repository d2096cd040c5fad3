// Where the adapter finds each of Pi's functions.
//
// Public exports come from the packages' entry points. A function that Pi 1.6.0 does not export
// publicly is imported from its internal module by a file URL resolved from the installed
// package (`internal(...)`), never copied: such imports are marked "internal module" where used.

const CODING_AGENT = "@earendil-works/pi-coding-agent";
const AI = "@earendil-works/pi-ai";

/** Pi's coding-agent package (public exports). */
export const codingAgent = await import(CODING_AGENT);
/** Pi's AI package (public exports). */
export const ai = await import(AI);

const codingAgentEntry = import.meta.resolve(CODING_AGENT); // .../pi-coding-agent/dist/index.js

/**
 * Import an internal module of the coding-agent package, `relative` to its `dist/` folder (for
 * example `core/prompt-templates.js`), by file URL.
 */
export function internal(relative) {
  return import(new URL(`./${relative}`, codingAgentEntry).href);
}

/** The installed coding-agent version, as Pi reports it. */
export const PI_VERSION = codingAgent.VERSION;
