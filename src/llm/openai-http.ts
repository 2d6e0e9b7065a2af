import { parseRetryAfter } from "./backoff.js";
import type { FetchLike } from "./transport.js";

/** Why one HTTP attempt failed, in the terms the retry policy needs. */
export type AttemptFailure =
  | { kind: "abort" }
  | { kind: "timeout" }
  | { kind: "connection"; cause: unknown }
  | { kind: "http"; status: number; retryAfterMs: number | undefined; detail: string }
  /** A 2xx whose body is not JSON. */
  | { kind: "malformed" };

export type AttemptOutcome = { ok: true; body: unknown } | { ok: false; failure: AttemptFailure };

export interface OpenAIEndpoint {
  /** e.g. "http://127.0.0.1:8000/v1", without a trailing slash. */
  baseUrl: string;
  /** Sent as a bearer token; the SDK this replaced sent "not-set" when there was none. */
  apiKey: string | undefined;
  fetch: FetchLike;
}

/**
 * One POST of a JSON body to an OpenAI-compatible endpoint (`/chat/completions`, `/embeddings`),
 * with a per-attempt timeout that also covers reading the body. It never throws: every failure is
 * returned as an AttemptFailure for the caller's retry loop. The openai SDK did the same work with
 * about a third of the client's CPU per call (header objects, eager debug-log formatting, several
 * promise hops) and twice the allocation, which at 64 calls in flight mostly became GC time.
 */
export async function postOpenAI(
  endpoint: OpenAIEndpoint,
  path: string,
  body: unknown,
  options: { signal: AbortSignal | undefined; timeoutMs: number },
): Promise<AttemptOutcome> {
  const { signal } = options;
  if (signal?.aborted) return { ok: false, failure: { kind: "abort" } };
  // Serialized before the try: a body that cannot be serialized is a bug, not a connection error.
  const json = JSON.stringify(body);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const response = await endpoint.fetch(`${endpoint.baseUrl}${path}`, {
      method: "POST",
      headers: {
        accept: "application/json",
        "content-type": "application/json",
        authorization: `Bearer ${endpoint.apiKey ?? "not-set"}`,
        "user-agent": "ragjudge",
      },
      body: json,
      signal: controller.signal,
    });
    const text = response.status === 204 ? "" : await response.text();
    if (!response.ok) {
      return {
        ok: false,
        failure: {
          kind: "http",
          status: response.status,
          retryAfterMs: parseRetryAfter(response.headers),
          detail: errorDetail(text),
        },
      };
    }
    try {
      return { ok: true, body: text === "" ? null : (JSON.parse(text) as unknown) };
    } catch {
      return { ok: false, failure: { kind: "malformed" } };
    }
  } catch (error) {
    if (signal?.aborted) return { ok: false, failure: { kind: "abort" } };
    if (timedOut || isTimeoutMessage(error)) return { ok: false, failure: { kind: "timeout" } };
    return { ok: false, failure: { kind: "connection", cause: error } };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** A fetch's own connect timeout (undici's ConnectTimeoutError) is a timeout too. */
function isTimeoutMessage(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return /timed? ?out/i.test(`${String(error)}${cause === undefined ? "" : String(cause)}`);
}

/**
 * The server's error message as the openai SDK reported it: `error.message` of an OpenAI error
 * body, the whole `error` object otherwise, the raw text when the body is not JSON.
 */
function errorDetail(text: string): string {
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    return text.slice(0, 500);
  }
  const error = (json as { error?: unknown } | null | undefined)?.error as
    { message?: unknown } | undefined;
  const message = error?.message
    ? typeof error.message === "string"
      ? error.message
      : JSON.stringify(error.message)
    : error
      ? JSON.stringify(error)
      : undefined;
  return (message || "status code (no body)").slice(0, 500);
}
