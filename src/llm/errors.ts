// Typed errors for the LLM layer. Test with `LlmHttpError.isInstance(e)` rather than `instanceof`,
// which breaks when two copies of the package are loaded (the Vercel AI SDK does the same).

import { redactSecrets } from "./redact.js";

const MARKER = Symbol.for("ragjudge.llm.error");

export type LlmErrorName =
  | "LlmConfigError"
  | "LlmHttpError"
  | "LlmTimeoutError"
  | "LlmConnectionError"
  | "LlmAbortError"
  | "LlmResponseError";

function hasName(error: unknown, name: LlmErrorName): boolean {
  return LlmError.isInstance(error) && error.name === name;
}

/**
 * Base class of every error the LLM layer throws. Messages never contain API keys: a provider's
 * detail may echo the key it was sent, so every message is redacted here (redact.ts).
 * `retryable` says whether the failure is of a kind that trying again may mend (a timeout, a lost
 * connection, a 429 or 5xx); retry.ts decides on it alone, and a final error still carries it so
 * callers can tell an outage from a refusal.
 */
export class LlmError extends Error {
  readonly [MARKER] = true;
  override readonly name: LlmErrorName;
  readonly retryable: boolean;

  constructor(
    name: LlmErrorName,
    message: string,
    options?: { cause?: unknown; retryable?: boolean },
  ) {
    super(
      redactSecrets(message),
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = name;
    this.retryable = options?.retryable ?? false;
  }

  static isInstance(error: unknown): error is LlmError {
    return typeof error === "object" && error !== null && MARKER in error;
  }
}

/** A configuration value is missing or invalid. `field` is the dotted path at fault. */
export class LlmConfigError extends LlmError {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_config";
  constructor(
    readonly field: string,
    readonly expected: string,
    readonly source: string,
    options?: { cause?: unknown },
  ) {
    super("LlmConfigError", `${source}: ${field}: expected ${expected}`, options);
  }

  static override isInstance(error: unknown): error is LlmConfigError {
    return hasName(error, "LlmConfigError");
  }
}

/** The server answered with a non-2xx status (after retries, when the status is retryable). */
export class LlmHttpError extends LlmError {
  /** The server's Retry-After, in ms, when it sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    readonly status: number,
    readonly provider: string,
    readonly attempts: number,
    retryable: boolean,
    detail: string,
    options?: { cause?: unknown; retryAfterMs?: number | undefined },
  ) {
    super(
      "LlmHttpError",
      `HTTP ${status} from ${provider} after ${attempts} attempt(s): ${detail}`,
      {
        cause: options?.cause,
        retryable,
      },
    );
    this.retryAfterMs = options?.retryAfterMs;
  }

  static override isInstance(error: unknown): error is LlmHttpError {
    return hasName(error, "LlmHttpError");
  }
}

/** Every attempt exceeded its per-attempt timeout. */
export class LlmTimeoutError extends LlmError {
  constructor(
    readonly timeoutMs: number,
    readonly provider: string,
    readonly attempts: number,
  ) {
    super(
      "LlmTimeoutError",
      `no answer from ${provider} within ${timeoutMs} ms (${attempts} attempt(s))`,
      { retryable: true },
    );
  }

  static override isInstance(error: unknown): error is LlmTimeoutError {
    return hasName(error, "LlmTimeoutError");
  }
}

/** The server could not be reached (refused, reset, DNS) on every attempt. */
export class LlmConnectionError extends LlmError {
  constructor(
    readonly provider: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super("LlmConnectionError", `cannot reach ${provider} (${attempts} attempt(s))`, {
      cause: options?.cause,
      retryable: true,
    });
  }

  static override isInstance(error: unknown): error is LlmConnectionError {
    return hasName(error, "LlmConnectionError");
  }
}

/** The caller's AbortSignal fired. Never retried. */
export class LlmAbortError extends LlmError {
  constructor(message = "the call was aborted") {
    super("LlmAbortError", message);
  }

  static override isInstance(error: unknown): error is LlmAbortError {
    return hasName(error, "LlmAbortError");
  }
}

/** A 2xx answer whose body is not an OpenAI-compatible completion or embedding. */
export class LlmResponseError extends LlmError {
  constructor(
    readonly provider: string,
    readonly expected: string,
  ) {
    super("LlmResponseError", `malformed response from ${provider}: expected ${expected}`);
  }

  static override isInstance(error: unknown): error is LlmResponseError {
    return hasName(error, "LlmResponseError");
  }
}
