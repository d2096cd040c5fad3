// The kit's own operations.

export const operations = {
  /** kit.echo: input {value}, output the same. */
  "kit.echo": async (input) => ({ value: input.value ?? null }),
};
