// Stand-in: the managed block's markers (PROF-BLOCK).
export const MANAGED_BEGIN: string = "<!-- system-instructions:begin v1 -->";
export const MANAGED_END: string = "<!-- system-instructions:end -->";
