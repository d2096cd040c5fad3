// models.json operations over Pi's own code.
//
// - pi.models-value: core/resolve-config-value.js (internal module: not exported publicly):
//   `isCommandConfigValue` and `getConfigValueEnvVarNames` say the value's form and the variables
//   it reads; `resolveConfigValueUncached` resolves it the way Pi does at request time (a command
//   runs every time; `resolveConfigValue` would serve a cached result for the process lifetime).
//   The process environment is the case's `env` only (plus PATH, so a command finds its shell).

import { internal } from "../pi.mjs";
import { withEnv } from "../sandbox.mjs";

// internal module: core/resolve-config-value.js
const values = await internal("core/resolve-config-value.js");

/** Variables for withEnv: every sandbox variable but PATH unset, then the case's own. */
export function caseEnvironment(baseEnv, env) {
  const variables = {};
  for (const name of Object.keys(baseEnv)) if (name !== "PATH" && name !== "Path") variables[name] = null;
  return { ...variables, ...env };
}

export const operations = {
  "pi.models-value": async ({ value, env }, { sandbox }) =>
    withEnv(sandbox.baseEnv, caseEnvironment(sandbox.baseEnv, env), async () => {
      const form = values.isCommandConfigValue(value)
        ? "command"
        : values.getConfigValueEnvVarNames(value).length > 0
          ? "env"
          : "literal";
      return {
        form,
        variables: values.getConfigValueEnvVarNames(value),
        resolved: values.resolveConfigValueUncached(value, env) ?? null,
      };
    }),
};
