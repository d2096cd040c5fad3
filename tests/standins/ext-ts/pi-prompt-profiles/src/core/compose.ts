// Stand-in: stripping and composing the managed block (PROF-STRIP, PROF-BLOCK, PROF-COMPOSE).
import { MANAGED_BEGIN, MANAGED_END } from "./markers.js";

interface Layer {
	content: string;
}
interface Profile {
	layers: Layer[];
}
export interface Stripped {
	text: string;
	removed: number;
	unterminated: boolean;
}

export function stripManagedBlocks(prompt: string): Stripped {
	let text: string = prompt;
	let removed = 0;
	for (;;) {
		const start: number = text.indexOf(MANAGED_BEGIN);
		if (start < 0) return { text, removed, unterminated: false };
		const end: number = text.indexOf(MANAGED_END, start + MANAGED_BEGIN.length);
		if (end < 0) return { text, removed, unterminated: true };
		const rest: string = text.slice(end + MANAGED_END.length).replace(/^(\r?\n)+/, "");
		text = text.slice(0, start) + rest;
		removed += 1;
	}
}

const CONTROL: string = "Follow the profile below as your primary instructions; it comes before any other.";

export function applyManagedPrompt(basePrompt: string, profile: Profile | undefined) {
	const found: Stripped = stripManagedBlocks(basePrompt);
	if (!profile) return { systemPrompt: found.text, hash: "", stripped: found.removed, unterminated: found.unterminated };
	const block: string = [MANAGED_BEGIN, CONTROL, ...profile.layers.map((l) => l.content), MANAGED_END].join("\n\n");
	return { systemPrompt: `${block}\n\n${found.text}`, block, hash: "", stripped: found.removed, unterminated: found.unterminated };
}
