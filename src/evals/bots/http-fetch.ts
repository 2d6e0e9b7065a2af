import type { LookupFunction } from "node:net";
import type { Agent, RequestInit as UndiciRequestInit } from "undici";

// The fetch of HTTP bots and alert webhooks: undici's, on an Agent whose new connections resolve
// host names with the caller's `lookup` (network-policy.ts checks every address there). The socket
// connects to the address that lookup returned, so the address checked is the address reached: a
// DNS answer that changes between a check and the connection (rebinding) cannot bypass the policy.
// IP literals never go through a lookup; callers check those first (checkUrlHost).

/** The subset of `fetch` the HTTP bot and alert webhooks call. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface AgentFetchOptions {
  /** Connections per origin; keep-alive connections are reused across calls. Default 256. */
  maxSockets?: number;
  /** Resolves host names for new connections (e.g. one that checks addresses against a policy). */
  lookup?: LookupFunction;
  /**
   * Largest response body, in bytes as received (before decoding); reading a larger one fails
   * (isResponseTooLarge) instead of filling the heap. Default: no limit.
   */
  maxBodyBytes?: number;
}

/** undici loads at the first call, not with every CLI command (~20 ms of CPU at start-up). */
let undici: Promise<typeof import("undici")> | undefined;

/** A fetch on its own keep-alive Agent. Redirects are never followed: a 3xx is the response. */
export function createAgentFetch(options: AgentFetchOptions = {}): FetchLike {
  let dispatcher: Agent | undefined;
  return async (url, init) => {
    const { Agent, fetch } = await (undici ??= import("undici"));
    dispatcher ??= new Agent({
      connections: options.maxSockets ?? 256,
      maxResponseSize: options.maxBodyBytes ?? -1,
      // The caller's signal is the deadline (undici's own would end a call at 300 s whatever it asked).
      headersTimeout: 0,
      bodyTimeout: 0,
      ...(options.lookup && { connect: { lookup: options.lookup } }),
    });
    // undici's request options and Response are the web ones callers use; only the types differ.
    const response = await fetch(url, {
      ...(init as UndiciRequestInit),
      // A redirect could carry the request and its credentials where the policy was not asked.
      redirect: "manual",
      dispatcher,
    });
    return response as unknown as Response;
  };
}

/** Whether a fetch, or the reading of its body, failed on the `maxBodyBytes` limit. */
export function isResponseTooLarge(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === "UND_ERR_RES_EXCEEDED_MAX_SIZE") return true;
  }
  return false;
}

/**
 * Ports fetch never connects to, whatever the host: the Fetch standard's "bad port" list
 * (https://fetch.spec.whatwg.org/#port-blocking), which undici's fetch enforces with an error that
 * carries no code. The HTTP bot checks it first, to refuse such a URL once and by name instead of
 * failing every call as "cannot connect". The test compares this list with undici's own.
 */
export const FETCH_BLOCKED_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
  512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
  995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);
