// An external RAG system under evaluation, reached over HTTP (the contract is in docs/bots.md and
// http-contract.ts). Retries what is likely transient (network errors, timeouts, 5xx, 429) and
// nothing else; secrets in the URL or headers never reach describe(), errors or logs. Connections
// go only where the network policy allows (network-policy.ts), redirects are never followed (they
// could carry the request and its credentials elsewhere), and errors say what happened at the
// status level, never what the bot's body said (it may be an internal service's page).

import { z } from "zod";
import {
  type BackoffPolicy,
  parseRetryAfter,
  registerSecrets,
  withRetries,
} from "../../llm/index.js";
import { type HttpBotRequest, parseHttpBotReply } from "./http-contract.js";
import { createAgentFetch, FETCH_BLOCKED_PORTS, isResponseTooLarge } from "./http-fetch.js";
import {
  type BotNetworkPolicy,
  BotNetworkPolicyError,
  checkedLookup,
  checkUrlHost,
  restrictedBotNetwork,
} from "./network-policy.js";
import { probeTcp } from "./tcp-probe.js";
import { type Bot, type BotAnswer, BotError } from "./types.js";

export const HTTP_BOT_DEFAULTS = {
  timeoutMs: 60_000,
  retries: 2,
  /** maxMs also caps how long a Retry-After may make us wait. */
  backoff: { baseMs: 1_000, maxMs: 30_000 } satisfies BackoffPolicy,
  probeTimeoutMs: 5_000,
  /** A reply larger than this is an error, not a reason to fill the worker's memory. */
  maxReplyBytes: 10 * 1024 * 1024,
} as const;

const HttpBotOptionsSchema = z.object({
  url: z
    .string()
    .refine(
      (url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol),
      "an http:// or https:// URL",
    ),
  /** Per attempt. */
  timeoutMs: z.number().int().positive().default(HTTP_BOT_DEFAULTS.timeoutMs),
  /** Retries after the first attempt. */
  retries: z.number().int().min(0).max(10).default(HTTP_BOT_DEFAULTS.retries),
  headers: z.record(z.string(), z.string()).default({}),
  /** Shown in reports instead of the URL. */
  name: z.string().trim().min(1).optional(),
  backoff: z
    .object({ baseMs: z.number().min(0), maxMs: z.number().min(0) })
    .default(HTTP_BOT_DEFAULTS.backoff),
  probeTimeoutMs: z.number().int().positive().default(HTTP_BOT_DEFAULTS.probeTimeoutMs),
});
export type HttpBotOptions = z.input<typeof HttpBotOptionsSchema> & {
  /**
   * Where the bot may connect. Default: public addresses only (restrictedBotNetwork()), so a
   * caller that forgets the policy cannot reach loopback or the operator's network; the server
   * passes the operator's policy, and the CLI's runs pass OPEN_BOT_NETWORK on purpose.
   */
  network?: BotNetworkPolicy;
};

export class HttpBotOptionsError extends Error {
  override readonly name = "HttpBotOptionsError";
  constructor(
    readonly field: string,
    readonly expected: string,
  ) {
    super(`http bot: ${field}: expected ${expected}`);
  }
}

/** Query parameters whose values are credentials by their name (api_key, token, sig, ...). */
const CREDENTIAL_PARAM = /key|token|secret|pass|auth|sig|credential/i;

/** The URL as reports may show it: no user:password, credential query values replaced. */
export function displayUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  for (const name of [...parsed.searchParams.keys()]) {
    if (CREDENTIAL_PARAM.test(name)) parsed.searchParams.set(name, "REDACTED");
  }
  return parsed.toString();
}

/** Every string that must not be echoed back: header values (and a bearer's bare token), URL credentials. */
function secretsOf(url: URL, headers: Record<string, string>): string[] {
  const secrets = [url.username, url.password];
  for (const [name, value] of url.searchParams) {
    if (CREDENTIAL_PARAM.test(name)) secrets.push(value);
  }
  for (const value of Object.values(headers)) secrets.push(value, value.split(/\s+/).at(-1) ?? "");
  // Short values (e.g. "json") would redact ordinary words and cannot be meaningful secrets.
  return [...new Set(secrets.filter((s) => s.length >= 6))].sort((a, b) => b.length - a.length);
}

/** Creates a Bot that POSTs `{question}` to `url` and validates the JSON reply. */
export function createHttpBot({
  network = restrictedBotNetwork(),
  ...options
}: HttpBotOptions): Bot {
  const parsed = HttpBotOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // The message of a bad URL must not repeat the URL: it may hold credentials.
    throw new HttpBotOptionsError(
      issue?.path.map(String).join(".") || "(options)",
      issue?.message ?? "valid options",
    );
  }
  const config = parsed.data;
  const url = new URL(config.url);
  const name = config.name ?? displayUrl(config.url);
  // BotError redacts every registered secret from its message (llm/redact.ts).
  registerSecrets(secretsOf(url, config.headers));
  const fail = (
    kind: BotError["kind"],
    message: string,
    options: { status?: number; retryable?: boolean; retryAfterMs?: number } = {},
  ) =>
    new BotError(kind, `${name}: ${message}`, options.status, {
      retryable: options.retryable ?? false,
      retryAfterMs: options.retryAfterMs,
    });
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  // fetch never connects to these: said once, by name, rather than "cannot connect" at every try.
  const blockedPort = FETCH_BLOCKED_PORTS.has(port)
    ? `port ${port} is one that fetch never connects to (the Fetch standard's blocked ports)`
    : undefined;
  const lookup = checkedLookup(network);
  const fetchBot = createAgentFetch({
    maxSockets: 64,
    lookup,
    maxBodyBytes: HTTP_BOT_DEFAULTS.maxReplyBytes,
  });

  /** One POST: the answer, or a thrown BotError saying whether another attempt may help. */
  async function attempt(
    request: HttpBotRequest,
    caller: AbortSignal,
  ): Promise<Omit<BotAnswer, "latency_ms" | "attempts">> {
    const timeout = AbortSignal.timeout(config.timeoutMs);
    const signal = AbortSignal.any([caller, timeout]);
    // Which signal fired tells the caller's cancellation (not ours to report) from our timeout.
    const transportFailure = (cause: unknown): BotError => {
      if (caller.aborted) throw caller.reason;
      if (timeout.aborted) {
        return fail("timeout", `no reply within ${config.timeoutMs} ms`, { retryable: true });
      }
      const refused = policyRefusal(cause);
      // The same address would be refused again: no retry.
      if (refused) return fail("unreachable", refused.message);
      if (isResponseTooLarge(cause)) {
        return fail(
          "invalid_response",
          `reply larger than ${HTTP_BOT_DEFAULTS.maxReplyBytes} bytes`,
        );
      }
      return fail("unreachable", networkReason(cause), { retryable: true });
    };
    try {
      // An IP literal never goes through the lookup: it is checked here.
      checkUrlHost(url, network);
    } catch (error) {
      throw transportFailure(error);
    }
    if (blockedPort) throw fail("unreachable", blockedPort);
    let response: Response;
    let body: string;
    try {
      response = await fetchBot(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...config.headers,
        },
        body: JSON.stringify(request),
        signal,
      });
      body = await response.text();
    } catch (error) {
      throw transportFailure(error);
    }
    if (!response.ok) {
      const retryable = response.status >= 500 || response.status === 429;
      const redirect =
        response.status >= 300 && response.status < 400 ? " (redirects are not followed)" : "";
      const asked = retryable ? parseRetryAfter(response.headers) : undefined;
      throw fail("http_status", `HTTP ${response.status} from bot${redirect}`, {
        status: response.status,
        retryable,
        // A longer wait is cut to backoff.maxMs rather than given up on (see the tests).
        ...(asked !== undefined && { retryAfterMs: Math.min(asked, config.backoff.maxMs) }),
      });
    }
    const reply = parseHttpBotReply(body);
    // A 2xx with the wrong shape is the bot's answer, not a hiccup: retrying would only hide it.
    if (!reply.ok) throw fail("invalid_response", reply.problem);
    const { answer, citations, contexts, trace, usage } = reply;
    if (usage.length === 0) return { answer, citations, contexts, trace };
    const sum = (key: "prompt_tokens" | "completion_tokens" | "calls") =>
      usage.reduce((total, u) => total + u[key], 0);
    return {
      answer,
      citations,
      contexts,
      trace,
      usage: {
        prompt_tokens: sum("prompt_tokens"),
        completion_tokens: sum("completion_tokens"),
        calls: sum("calls"),
      },
      usage_by_model: usage,
    };
  }

  return {
    describe: () => ({ kind: "http", name }),

    async ask({ question, signal }) {
      const started = performance.now();
      let attempts = 0;
      try {
        const answer = await withRetries(
          (retry) => {
            signal.throwIfAborted();
            attempts = retry + 1;
            return attempt({ question }, signal);
          },
          { maxRetries: config.retries, backoff: config.backoff, signal },
        );
        const latency_ms = Math.round((performance.now() - started) * 100) / 100;
        return { ...answer, latency_ms, attempts };
      } catch (error) {
        // The wait between attempts rejects with llm's abort error; the caller expects its own.
        if (signal.aborted) throw signal.reason;
        if (error instanceof BotError && attempts > 1) {
          error.message += ` (after ${attempts} attempts)`;
        }
        throw error;
      }
    },

    async probe(signal) {
      // URL keeps an IPv6 host in brackets; net.connect wants it bare.
      const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
      try {
        checkUrlHost(url, network);
      } catch (error) {
        throw fail("unreachable", (error as Error).message);
      }
      if (blockedPort) throw fail("unreachable", blockedPort);
      return probeTcp({ host, port, timeoutMs: config.probeTimeoutMs, signal, lookup });
    },
  };
}

/** The policy's refusal, thrown directly (an IP literal) or by the lookup (as the fetch's cause). */
function policyRefusal(error: unknown): BotNetworkPolicyError | undefined {
  if (error instanceof BotNetworkPolicyError) return error;
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof BotNetworkPolicyError ? cause : undefined;
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "unknown host",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  EPIPE: "connection closed",
  // undici's own codes (http-fetch.ts): the bot closed the connection, or did not accept it in 10 s.
  UND_ERR_SOCKET: "connection closed",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
};

/**
 * The failure's system code as a short phrase (`connection refused (ECONNREFUSED)`). The system's
 * own message is left out: it names the address a host resolved to.
 */
function networkReason(error: unknown): string {
  const code = codeOf(error);
  if (!code) return "cannot connect";
  return `cannot connect: ${NETWORK_CODES[code] ?? "network error"} (${code})`;
}

/** The system error code of a failed fetch: its cause's, or its own. */
function codeOf(error: unknown): string | undefined {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code ?? (error as { code?: string } | undefined)?.code;
}
