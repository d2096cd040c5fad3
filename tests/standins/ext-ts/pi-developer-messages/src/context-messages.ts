// Stand-in: the context-files message (ENV-CTX-*). The default agent directory comes from Pi's
// own package, which the checkout does not install: the adapter resolves it from pi-node's.
import { getAgentDir } from "@earendil-works/pi-coding-agent";

type File = { path: string; content: string };
type Message = { role?: string; customType?: string };

const TYPE: string = "@luan.sh/pi-developer-messages/agents-md";

const folderOf = (path: string): string => {
	const slashed = path.replaceAll("\\", "/");
	const cut = slashed.lastIndexOf("/");
	return cut <= 0 ? "/" : slashed.slice(0, cut);
};
const trimmed = (dir: string): string => {
	const slashed = dir.replaceAll("\\", "/");
	return slashed.length > 1 ? slashed.replace(/\/+$/, "") || "/" : slashed;
};

export function renderAgentsContext(files: readonly File[], cwd: string, agentDir: string = getAgentDir()): string | undefined {
	const kept: File[] = files.filter((f) => f.content.trim() !== "");
	if (kept.length === 0) return undefined;
	const global: boolean = kept.length > 1 && trimmed(folderOf(kept[0].path)) === trimmed(agentDir);
	const body: string = global
		? `${kept[0].content}\n\n--- project-doc ---\n\n${kept.slice(1).map((f) => f.content).join("\n\n")}`
		: kept.map((f) => f.content).join("\n\n");
	return `# AGENTS.md instructions for ${cwd.replaceAll("\\", "/")}\n\n<INSTRUCTIONS>\n${body}\n</INSTRUCTIONS>`;
}

export function injectAgentsContext<T extends Message>(messages: readonly T[], content: string | undefined): Array<T | object> | undefined {
	// a custom message is stored with role "custom" or with no role field (ENV-CTX-INJECT)
	const others: T[] = messages.filter((m) => !((!("role" in m) || m.role === "custom") && m.customType === TYPE));
	if (content === undefined) return others.length === messages.length ? undefined : others;
	return [{ role: "custom", customType: TYPE, content, display: false, timestamp: 0 }, ...others];
}
