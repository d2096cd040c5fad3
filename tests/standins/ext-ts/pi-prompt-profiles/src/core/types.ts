// Stand-in: the core's shared shapes.
export interface MatchRule {
	provider?: string;
	model?: string;
}
export interface ModelIdentity {
	provider: string;
	id: string;
}
