// Stand-in: provider instructions (ENV-INSTR-CUSTOM, ENV-INSTR-DEFAULT).

interface PromptOptions {
	customPrompt?: string;
	appendSystemPrompt?: string;
}

export function buildProviderInstructions(options: PromptOptions, builtPrompt: string = ""): string {
	const custom: string | undefined = options.customPrompt;
	if (custom === undefined || custom === "") return builtPrompt;
	const append: string = options.appendSystemPrompt ?? "";
	return append === "" ? custom : [custom, append].join("\n\n");
}
