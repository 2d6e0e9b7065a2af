import { isIPv6 } from "node:net";
import type { Context } from "hono";

// Failed logins per client address (a one-time login link's code, a token pasted into the login
// page): after `maxFailures` in a window the address's logins get 429 with Retry-After until the
// window ends, before the secret is even looked up, so a blocked client learns nothing more.
// Successes are not counted and reset nothing: a client holding one valid token of its own could
// otherwise clear its count between guesses. Sessions and bearer tokens already held keep working.
// The secrets are 192 random bits, so this is about hammering (lookups, log noise), not their only
// defence.

export interface LoginLimitOptions {
  /** Failures an address may have in a window before it is refused; default 10. */
  maxFailures?: number;
  /** Length of the window, from an address's first failure; default 15 minutes. */
  windowMs?: number;
  /** Addresses tracked at most; beyond it the expired go first, then the oldest. Default 10,000. */
  maxAddresses?: number;
  now?: () => number;
}

export const LOGIN_LIMIT_DEFAULTS = {
  maxFailures: 10,
  windowMs: 15 * 60_000,
  maxAddresses: 10_000,
} as const;

export interface LoginLimiter {
  /** Seconds the address must wait, or undefined when it may try. */
  blockedFor(address: string): number | undefined;
  /** Counts a failed login of the address. */
  fail(address: string): void;
  /** Addresses tracked now (bounded by maxAddresses). */
  readonly size: number;
}

export function createLoginLimiter(options: LoginLimitOptions = {}): LoginLimiter {
  const maxFailures = options.maxFailures ?? LOGIN_LIMIT_DEFAULTS.maxFailures;
  const windowMs = options.windowMs ?? LOGIN_LIMIT_DEFAULTS.windowMs;
  const maxAddresses = options.maxAddresses ?? LOGIN_LIMIT_DEFAULTS.maxAddresses;
  const now = options.now ?? Date.now;
  // Insertion order is the order of first failure, so the expired are at the front.
  const windows = new Map<string, { startedAt: number; failures: number }>();

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
      if (!entry || entry.failures < maxFailures) return undefined;
      return Math.max(1, Math.ceil((entry.startedAt + windowMs - at) / 1000));
    },
    fail(address) {
      const at = now();
      const entry = live(address, at);
      if (entry) {
        entry.failures++;
        return;
      }
      makeRoom(at);
      windows.set(address, { startedAt: at, failures: 1 });
    },
    get size() {
      return windows.size;
    },
  };
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
      message: `Too many failed logins from this address; try again in ${retryAfterSeconds} s.`,
    },
    429,
    { "retry-after": String(retryAfterSeconds) },
  );
}
