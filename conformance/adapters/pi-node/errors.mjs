// Answers other than a result that an operation handler can throw.

/** A refusal the specification defines: answered as `error` with a stable kebab-case code. */
export class Refusal extends Error {
  constructor(code, message) {
    super(message ?? code);
    this.code = code;
  }
}

/** Pi does not provide the operation, or a field the case needs: answered as `unsupported`. */
export class Unsupported extends Error {}

/** The adapter chooses not to run the case: answered as `skipped`. */
export class Skipped extends Error {}

/** The adapter cannot start (its implementation or part of it is missing): exit code 3. */
export class StartFailure extends Error {}
