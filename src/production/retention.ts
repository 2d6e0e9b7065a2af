// Retention of production answers: whole days older than `retention_days` are dropped, once at
// start and then every hour, by the process that serves the API.

import { type Db, dropAnswerDaysBefore } from "../store/index.js";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface AnswerRetention {
  /** The run made at start: the days it dropped (YYYY-MM-DD), or [] when it failed. */
  first: Promise<string[]>;
  stop(): void;
}

/**
 * Keeps `retentionDays` whole days: at `now`, every day before (today - retentionDays + 1) goes.
 * A failed run is reported to `onError` and tried again at the next hour.
 */
export function startAnswerRetention(options: {
  db: Db;
  retentionDays: number;
  onError?: (error: unknown) => void;
  /** The time; the system clock by default. */
  clock?: () => Date;
}): AnswerRetention {
  const clock = options.clock ?? (() => new Date());
  const run = () =>
    dropAnswerDaysBefore(
      options.db,
      new Date(clock().getTime() - (options.retentionDays - 1) * DAY_MS),
    ).catch((error: unknown) => {
      options.onError?.(error);
      return [];
    });
  const first = run();
  const timer = setInterval(() => void run(), HOUR_MS);
  timer.unref();
  return { first, stop: () => clearInterval(timer) };
}
