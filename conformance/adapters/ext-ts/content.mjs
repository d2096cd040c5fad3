// A case's declarative contribution content (conformance/operations/envelope.py, "Declarative
// contribution content") as the value an extension registers: a string, nothing, or a function of
// the render context `{provider, activeTools, sessionId, prompt, systemPromptOptions}`.

const PLACEHOLDER = /\{([^{}]*)\}/g;
const OPTION = "systemPromptOptions.";

const stringOr = (value) => (typeof value === "string" ? value : "");

/** The text a placeholder `name` stands for in `context` (one pass: values are not re-read). */
function placeholder(name, context) {
  const options = context.systemPromptOptions ?? {};
  switch (name) {
    case "provider":
      return context.provider ?? "";
    case "sessionId":
      return context.sessionId;
    case "prompt":
      return context.prompt ?? "";
    case "activeTools":
      return [...context.activeTools].join(",");
    case "customPrompt":
      return stringOr(options.customPrompt);
    case "cwd":
      return stringOr(options.cwd);
    default:
      return stringOr(options[name.slice(OPTION.length)]);
  }
}

function holds(condition, prompt) {
  const text = prompt ?? "";
  if (condition.promptContains != null) return text.includes(condition.promptContains);
  if (condition.promptEquals != null) return text === condition.promptEquals;
  return (text === "") === Boolean(condition.promptEmpty);
}

/** The rendered value of `spec` in `context`: a string, or undefined for nothing. */
function render(spec, context) {
  if (spec == null) return undefined;
  if (typeof spec === "string") return spec;
  if ("returns" in spec) return spec.returns ?? undefined;
  if ("template" in spec) return spec.template.replace(PLACEHOLDER, (_, name) => placeholder(name, context));
  if ("when" in spec) return render(holds(spec.when, context.prompt) ? spec.then : spec.otherwise, context);
  if ("raises" in spec) throw new Error(spec.raises);
  throw new Error(`unknown content form ${JSON.stringify(spec)}`);
}

/** What to register as a contribution's `content` for the case's `spec`. */
export function contentFunction(spec) {
  if (spec == null || typeof spec === "string") return spec;
  return (context) => render(spec, context);
}
