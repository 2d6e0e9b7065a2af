// Live progress streams a user may hold open at once (issue 22 §3). Each stream costs a socket, a
// first read of the run's finished results and a place in its run's poller; without a cap one
// user could open thousands. A browser needs one per page following a running evaluation.

export const DEFAULT_STREAMS_PER_USER = 20;

/** The variable that sets the cap for `ragjudge serve` (docs/security.md). */
export const STREAMS_PER_USER_ENV = "RAGJUDGE_STREAMS_PER_USER";

export interface StreamCap {
  /** A release function for one more stream of the user, or undefined when at the cap. */
  acquire(userId: string): (() => void) | undefined;
  readonly perUser: number;
}

export function createStreamCap(perUser: number = DEFAULT_STREAMS_PER_USER): StreamCap {
  const open = new Map<string, number>();
  return {
    perUser,
    acquire(userId) {
      const count = open.get(userId) ?? 0;
      if (count >= perUser) return undefined;
      open.set(userId, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (open.get(userId) ?? 1) - 1;
        if (left > 0) open.set(userId, left);
        else open.delete(userId);
      };
    },
  };
}

/** The cap from RAGJUDGE_STREAMS_PER_USER (a whole number from 1), or undefined when unset. */
export function streamsPerUserFromEnv(
  env: Record<string, string | undefined> = process.env,
): number | undefined {
  const raw = env[STREAMS_PER_USER_ENV]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`${STREAMS_PER_USER_ENV} must be a whole number from 1, not "${raw}"`);
  }
  return value;
}
