import { createHash } from "node:crypto";
import { isIPv6 } from "node:net";
import type { Context } from "hono";

// Failed secret lookups per client address: a one-time login link's code, a token pasted into the
// login page, and a bearer token or session cookie sent to any API route. After `maxFailures`
// distinct wrong secrets in a window, the address is blocked until the window ends: every new
// secret it sends gets 429 with Retry-After before it is even looked up, so a blocked client
// learns nothing more, even from a right guess. The secrets the address had already used with
// success (its held sessions and tokens, `hold`) are still looked up and served: they are no
// guesses, and a block must not log out the people who share the address. The same wrong secret
// sent again counts once: it is no new guess, and a stale cookie or a revoked token in a script's
// loop must not lock its owner out. Successes reset nothing: a client holding one valid token of
// its own could otherwise clear its count between guesses. The secrets are 192 random bits, so
// this is about hammering, not their only defence.

export interface LoginLimitOptions {
  /** Distinct wrong secrets an address may send in a window before it is refused; default 10. */
  maxFailures?: number;
  /** Length of the window, from an address's first failure; default 15 minutes. */
  windowMs?: number;
  /** Addresses tracked at most; beyond it the expired go first, then the oldest. Default 10,000. */
  maxAddresses?: number;
  /** Secrets remembered as held per address (the latest used); default 16. */
  maxHeldPerAddress?: number;
  now?: () => number;
}

export const LOGIN_LIMIT_DEFAULTS = {
  maxFailures: 10,
  windowMs: 15 * 60_000,
  maxAddresses: 10_000,
  maxHeldPerAddress: 16,
} as const;

export interface LoginLimiter {
  /** Seconds the address must wait, or undefined when it may try. */
  blockedFor(address: string): number | undefined;
  /** Counts a failed lookup of `secret` from the address (once per distinct secret and window). */
  fail(address: string, secret: string): void;
  /** Records that `secret` matched from the address: a session or token it holds. */
  hold(address: string, secret: string): void;
  /** True when `secret` matched from the address before: looked up even while it is blocked. */
  holds(address: string, secret: string): boolean;
  /** Addresses tracked now (bounded by maxAddresses). */
  readonly size: number;
}

export function createLoginLimiter(options: LoginLimitOptions = {}): LoginLimiter {
  const maxFailures = options.maxFailures ?? LOGIN_LIMIT_DEFAULTS.maxFailures;
  const windowMs = options.windowMs ?? LOGIN_LIMIT_DEFAULTS.windowMs;
  const maxAddresses = options.maxAddresses ?? LOGIN_LIMIT_DEFAULTS.maxAddresses;
  const now = options.now ?? Date.now;
  // Insertion order is the order of first failure, so the expired are at the front. `failed`
  // holds short digests of the wrong secrets, at most maxFailures of them (then the address is
  // blocked and nothing more is looked up).
  const windows = new Map<string, { startedAt: number; failed: Set<string> }>();
  // The digests of secrets that matched, per address, the latest last; the addresses in order of
  // their latest success, so the one idle longest is forgotten first.
  const maxHeld = options.maxHeldPerAddress ?? LOGIN_LIMIT_DEFAULTS.maxHeldPerAddress;
  const held = new Map<string, string[]>();

  const live = (address: string, at: number) => {
    const entry = windows.get(address);
    if (entry && at - entry.startedAt >= windowMs) {
      windows.delete(address);
      return undefined;
    }
    return entry;
  };

  function makeRoom(at: number) {
    for (const [address, entry] of windows) {
      if (windows.size < maxAddresses) return;
      if (at - entry.startedAt >= windowMs) windows.delete(address);
      else break;
    }
    while (windows.size >= maxAddresses) {
      windows.delete(windows.keys().next().value as string);
    }
  }

  return {
    blockedFor(address) {
      const at = now();
      const entry = live(address, at);
      if (!entry || entry.failed.size < maxFailures) return undefined;
      return Math.max(1, Math.ceil((entry.startedAt + windowMs - at) / 1000));
    },
    fail(address, secret) {
      const at = now();
      const digest = secretDigest(secret);
      const entry = live(address, at);
      if (entry) {
        if (entry.failed.size < maxFailures) entry.failed.add(digest);
        return;
      }
      makeRoom(at);
      windows.set(address, { startedAt: at, failed: new Set([digest]) });
    },
    hold(address, secret) {
      const digest = secretDigest(secret);
      const digests = held.get(address);
      if (digests?.at(-1) === digest) return; // the usual case: the same session again
      held.delete(address);
      const kept = (digests ?? []).filter((d) => d !== digest);
      kept.push(digest);
      held.set(address, kept.slice(-maxHeld));
      if (held.size > maxAddresses) held.delete(held.keys().next().value as string);
    },
    holds(address, secret) {
      return held.get(address)?.includes(secretDigest(secret)) ?? false;
    },
    get size() {
      return windows.size;
    },
  };
}

/** Enough of a secret's sha256 to tell guesses apart; the secret itself is not kept. */
function secretDigest(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url").slice(0, 16);
}

/**
 * The address a request came from, as the limiter counts it: an IPv6 client by its /64 (one host
 * is usually given a whole /64), an IPv4-mapped address as IPv4. Requests handed to the app in the
 * process (tests, `app.request`) have no socket and share one key. A proxy in front makes every
 * client its address: see docs/security.md.
 */
export function clientAddress(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)
    ?.incoming;
  const address = incoming?.socket?.remoteAddress;
  if (!address) return "in-process";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded (a zone or an IPv4 tail dropped). */
function expandIPv6(address: string): string[] {
  const bare = address.split("%")[0] as string;
  const [head = "", tail] = bare.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = Math.max(0, 8 - left.length - right.length);
  return [...left, ...Array<string>(missing).fill("0"), ...right].map((group) =>
    group.includes(".") ? "0" : group.toLowerCase().replace(/^0+(?=.)/, ""),
  );
}

/** The 429 a blocked address gets. */
export function tooManyAttempts(c: Context, retryAfterSeconds: number) {
  return c.json(
    {
      error: "too_many_attempts",
      message: `Too many wrong tokens, cookies or login codes from this address; try again in ${retryAfterSeconds} s.`,
    },
    429,
    { "retry-after": String(retryAfterSeconds) },
  );
}
