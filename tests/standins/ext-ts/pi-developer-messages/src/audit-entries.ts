// Stand-in: audit copies leave the model context (ENV-AUDIT-STRIP, ENV-AUDIT-EARLIER).
const AUDIT: ReadonlySet<string> = new Set([
	"@luan.sh/pi-developer-messages/group",
	"@luan.sh/pi-developer-messages/developer",
	"@luan.sh/pi-developer-messages/context-user",
]);

type Message = { role?: string; customType?: string };

export function removePromptAuditMessages<T extends Message>(messages: readonly T[]): T[] | undefined {
	// a custom message is stored with role "custom" or with no role field (ENV-AUDIT-STRIP)
	const kept: T[] = messages.filter((m) => !((!("role" in m) || m.role === "custom") && AUDIT.has(m.customType ?? "")));
	return kept.length === messages.length ? undefined : kept;
}
