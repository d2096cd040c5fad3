// Stand-in: the pickers' list logic (PROF-PICKER-*).
import type { ModelIdentity } from "./types.js";

type Item = { value: string; label: string };

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function providerNames(models: readonly ModelIdentity[]): string[] {
	return [...new Set(models.map((m) => m.provider))].sort(byCodePoint);
}

export function modelsOfProvider(models: readonly ModelIdentity[], provider: string): ModelIdentity[] {
	return models.filter((m) => m.provider === provider).sort((a, b) => byCodePoint(a.id, b.id));
}

export function filterItems(items: readonly Item[], query: string): Item[] {
	const wanted: string = query.trim().toLowerCase();
	return items.filter((item) => item.label.toLowerCase().includes(wanted) || item.value.toLowerCase().includes(wanted));
}
