// Stand-in: rule matching and specificity (PROF-MATCH-*).
import type { MatchRule, ModelIdentity } from "./types.js";

function glob(pattern: string | undefined, value: string): boolean {
	if (pattern === undefined) return true;
	const parts: string[] = pattern.split("*");
	if (parts.length === 1) return pattern === value;
	let at = 0;
	if (!value.startsWith(parts[0])) return false;
	at = parts[0].length;
	for (const middle of parts.slice(1, -1)) {
		const found: number = value.indexOf(middle, at);
		if (found < 0) return false;
		at = found + middle.length;
	}
	const last: string = parts[parts.length - 1];
	return value.length - at >= last.length && value.endsWith(last);
}

export function ruleSpecificity(rule: MatchRule): number {
	const exact = (field: string | undefined): boolean => field !== undefined && !field.includes("*");
	return exact(rule.provider) && exact(rule.model) ? 3 : exact(rule.model) ? 2 : exact(rule.provider) ? 1 : 0;
}

export function matchRule(rule: MatchRule, model: ModelIdentity): boolean {
	return glob(rule.provider, model.provider) && glob(rule.model, model.id);
}

export function matchBinding(binding: { match: MatchRule[] }, model: ModelIdentity, scope: string) {
	const matching: MatchRule[] = binding.match.filter((rule) => matchRule(rule, model));
	if (matching.length === 0) return undefined;
	const specificity: number = Math.max(...matching.map(ruleSpecificity));
	return { binding, scope, rule: matching.find((r) => ruleSpecificity(r) === specificity), specificity };
}
