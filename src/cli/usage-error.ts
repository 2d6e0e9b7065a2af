/** A mistake in how a command was called: printed without a stack, exit code 2. */
export class UsageError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "usage";
  override name = "UsageError";
}
