/**
 * A model the built-in bot was configured with failed (after the client's retries), and no
 * fallback was asked for (`rag.loops.answer.llm_fallback`): the ask fails, naming the model and
 * the cause, instead of answering without it unnoticed.
 */
export class ModelFailureError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "model_failed";
  override readonly name = "ModelFailureError";
  constructor(
    readonly role: "generator" | "judge",
    readonly model: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`the ${role} model ${model} failed: ${detail}`, options);
  }

  /** The ModelFailureError in an error's cause chain (the loop wraps a node's error), if any. */
  static findIn(error: unknown): ModelFailureError | undefined {
    for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
      if (e instanceof ModelFailureError) return e;
    }
    return undefined;
  }
}
