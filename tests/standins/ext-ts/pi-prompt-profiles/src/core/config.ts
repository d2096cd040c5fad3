// Stand-in: reading one config.json (PROF-CONFIG-*), enough for the rules of a binding.
import { readFileSync } from "node:fs";
import type { MatchRule } from "./types.js";

type Diagnostic = { level: "error" | "warn" | "info"; code: string; message: string };
type Binding = { id: string; profile: string; priority?: number; match: MatchRule[] };

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

function ruleOf(raw: unknown, diagnostics: Diagnostic[]): MatchRule | undefined {
	if (!isObject(raw)) {
		diagnostics.push({ level: "warn", code: "config-binding-match", message: "a rule is not an object" });
		return undefined;
	}
	const other: string | undefined = Object.keys(raw).find((key) => key !== "provider" && key !== "model");
	if (other !== undefined) {
		diagnostics.push({ level: "warn", code: "config-binding-match", message: `a rule has the key ${other}` });
		return undefined;
	}
	const rule: MatchRule = {};
	for (const field of ["provider", "model"] as const) {
		const value: unknown = raw[field];
		if (value === undefined) continue;
		if (typeof value !== "string" || value === "") {
			diagnostics.push({ level: "warn", code: "config-binding-match", message: `a rule's ${field} is not a pattern` });
			return undefined;
		}
		rule[field] = value;
	}
	return rule;
}

export function loadConfigFile(path: string, scope: "global" | "project") {
	const diagnostics: Diagnostic[] = [];
	const raw: unknown = JSON.parse(readFileSync(path, "utf8"));
	if (!isObject(raw) || raw.version !== 1) {
		diagnostics.push({ level: "error", code: "config-version", message: "not version 1" });
		return { scope, path, exists: true, config: undefined, diagnostics };
	}
	const bindings: Binding[] = [];
	for (const entry of Array.isArray(raw.bindings) ? raw.bindings : []) {
		if (!isObject(entry) || !Array.isArray(entry.match)) continue;
		const match: MatchRule[] = entry.match.map((r: unknown) => ruleOf(r, diagnostics)).filter((r): r is MatchRule => r !== undefined);
		if (match.length > 0) bindings.push({ id: String(entry.id), profile: String(entry.profile), match });
	}
	return { scope, path, exists: true, config: { version: 1, bindings }, diagnostics };
}
