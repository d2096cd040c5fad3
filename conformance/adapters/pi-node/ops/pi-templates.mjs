// Prompt templates over Pi's own code.
//
// - pi.load-templates: Pi's DefaultResourceLoader (public export) over an in-memory
//   SettingsManager holding the case's settings `prompts` lists, whose project trust is the case's, with extensions, skills, themes and
//   context files switched off; its prompts and diagnostics are what Pi loads for a session.
// - pi.parse-args, pi.substitute-args: `parseCommandArgs` and `substituteArgs` of
//   core/prompt-templates.js (internal module: Pi 1.6.0 does not export them publicly).
// - pi.expand-input: AgentSession's extension-command dispatch (`_tryExecuteExtensionCommand`,
//   called on a stand-in session whose extension runner knows the case's command names), then
//   `expandPromptTemplate` (internal module, as above), in the order AgentSession.prompt uses.

import { isAbsolute, relative, resolve, sep } from "node:path";
import { codingAgent, instance, internal, method } from "../pi.mjs";
import { Refusal } from "../errors.mjs";

// internal module: core/prompt-templates.js
const templates = await internal("core/prompt-templates.js");
// internal module: core/settings-manager.js (InMemorySettingsStorage is not exported publicly)
const settingsModule = await internal("core/settings-manager.js");

/** `root/relative`, refusing absolute paths and paths that leave the tree (as the reference does). */
export function inTree(root, relativePath, field) {
  // A case without a tree: nothing of the machine's own disk is read.
  if (root == null) throw new Refusal("tree-missing", `${field} is a path in the case's tree, and the case has none`);
  if (isAbsolute(relativePath) || relativePath.split(/[\\/]/).includes("..")) {
    throw new Refusal("input-path-outside-tree", `${field} must be a path inside the tree: ${JSON.stringify(relativePath)}`);
  }
  return resolve(root, relativePath);
}

/** `path` relative to `root`, with `/` separators. */
export function fromRoot(root, path) {
  return relative(root, path).split(sep).join("/");
}

/** The suite's diagnostic code for one of Pi's prompt diagnostics. */
function diagnosticCode(diagnostic) {
  if (diagnostic.type === "collision") return "template-name-collision";
  // An explicit path that does not exist: the resource loader's own error diagnostic.
  if (diagnostic.type === "error" && diagnostic.message === "Prompt template path does not exist") return "template-path-missing";
  // Pi reports both a failed read and a failed frontmatter parse as a warning carrying the error
  // message; a failed read is a Node file-system error (`EACCES: ...`, `EISDIR: ...`).
  return /^E[A-Z]+: /.test(diagnostic.message ?? "") ? "template-unreadable" : "template-frontmatter-invalid";
}

export const operations = {
  "pi.load-templates": async (input, { root }) => {
    const agentDir = inTree(root, input.agentDir, "agentDir");
    const cwd = inTree(root, input.cwd, "cwd");
    // The settings files' `prompts` lists, as Pi reads them from settings.json.
    const storage = new settingsModule.InMemorySettingsStorage();
    storage.withLock("global", () => JSON.stringify(input.personalPrompts == null ? {} : { prompts: input.personalPrompts }));
    storage.withLock("project", () => JSON.stringify(input.projectPrompts == null ? {} : { prompts: input.projectPrompts }));
    const settingsManager = codingAgent.SettingsManager.fromStorage(storage, { projectTrusted: input.projectTrusted });
    // Explicit paths are Pi's `--prompt-template` (additionalPromptTemplatePaths, resolved from
    // cwd); `defaultFolders: false` is `--no-prompt-templates` (noPromptTemplates).
    const paths = (input.paths ?? []).map((p, i) => {
      const resolved = resolve(cwd, p.trim());
      if (isAbsolute(p) || relative(root, resolved).split(sep)[0] === "..") {
        throw new Refusal("input-path-outside-tree", `paths[${i}] must lead inside the tree: ${JSON.stringify(p)}`);
      }
      return resolved;
    });
    const loader = instance(new codingAgent.DefaultResourceLoader({
      cwd,
      agentDir,
      settingsManager,
      additionalPromptTemplatePaths: paths,
      noPromptTemplates: input.defaultFolders === false,
      noExtensions: true,
      noSkills: true,
      noThemes: true,
      noContextFiles: true,
    }), "DefaultResourceLoader");
    await loader.reload();
    const { prompts, diagnostics } = loader.getPrompts();
    return {
      templates: prompts.map((t) => ({
        name: t.name,
        description: t.description,
        argumentHint: t.argumentHint ?? null,
        content: t.content,
        path: fromRoot(root, t.filePath),
        scope: t.sourceInfo?.scope,
      })),
      diagnostics: diagnostics.map((d) => ({
        code: diagnosticCode(d),
        path: fromRoot(root, d.collision?.loserPath ?? d.path),
        name: d.collision?.name ?? null,
        winnerPath: d.collision ? fromRoot(root, d.collision.winnerPath) : null,
      })),
    };
  },

  "pi.parse-args": async ({ text }) => ({ args: templates.parseCommandArgs(text) }),

  "pi.substitute-args": async ({ content, args }) => ({ text: templates.substituteArgs(content, args) }),

  "pi.expand-input": async ({ text, templates: loaded = [], extensionCommands = [] }) => {
    // 1. Extension commands first, with Pi's own dispatch: it splits the command name from the
    //    raw argument text and calls the command's handler.
    let argText = null;
    let commandName = null;
    const standIn = {
      _extensionRunner: {
        getCommand: (name) =>
          extensionCommands.includes(name)
            ? {
                handler: async (args) => {
                  commandName = name;
                  argText = args;
                },
              }
            : undefined,
        createCommandContext: () => ({}),
        emitError: () => {},
      },
    };
    if (text.startsWith("/")) {
      const handled = await method(codingAgent.AgentSession.prototype, "_tryExecuteExtensionCommand",
        "AgentSession._tryExecuteExtensionCommand").call(standIn, text);
      if (handled) return { kind: "extension-command", text, name: commandName, args: null, argText };
    }
    // 2. Templates: Pi's expandPromptTemplate; the array records which template it picked.
    const recorder = TemplateRecorder.from(loaded.map((t) => ({ name: t.name, content: t.content })));
    const expanded = templates.expandPromptTemplate(text, recorder);
    const picked = recorder.picked;
    if (!picked) return { kind: "text", text: expanded, name: null, args: null, argText: null };
    // The argument text is what follows the name and its whitespace, as expandPromptTemplate
    // matches it; the arguments are Pi's parse of it.
    const argString = text.slice(1 + picked.name.length).replace(/^\s+/, "");
    return { kind: "template", text: expanded, name: picked.name, args: templates.parseCommandArgs(argString), argText: null };
  },
};

/** An array that remembers the template `find` returned (expandPromptTemplate looks up by name). */
class TemplateRecorder extends Array {
  static get [Symbol.species]() {
    return Array;
  }
  find(predicate) {
    const found = super.find(predicate);
    if (found) this.picked = found;
    return found;
  }
}
