import { LlmAbortError } from "./errors.js";

/** How a call that held a slot ended, which is what the AIMD rule reacts to. */
export type SlotOutcome = "ok" | "rate_limited" | "error";

export interface Slot {
  /** Call exactly once. A second call is ignored. */
  release(outcome: SlotOutcome): void;
}

interface Waiter {
  resolve: (slot: Slot) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/** Where a new limiter starts when its ceiling allows: safe for any provider, grown from there. */
export const START_CONCURRENCY = 8;

/**
 * A concurrency limit that finds the provider's, like TCP congestion control:
 * - slow start: +1 per success (doubling per window of calls) until the first 429;
 * - on a 429 the limit halves, and the level that drew it, less one, becomes the ceiling the limit
 *   regains at slow-start speed (`#threshold`);
 * - above that level it probes slowly (+1 per four windows), since the provider just said no there.
 * Only one halving per window: a 429 from a call that started before the last halving was already
 * accounted for, so a burst of 429s does not collapse the limit to 1. `max` caps it all.
 */
export class AdaptiveLimiter {
  #max: number;
  #limit: number;
  #threshold = Number.POSITIVE_INFINITY;
  #rateLimited = 0;
  #inFlight = 0;
  #generation = 0;
  readonly #queue: (Waiter | undefined)[] = [];
  #head = 0;

  /** `start` defaults to START_CONCURRENCY, never above `max`. */
  constructor(max: number, start = START_CONCURRENCY) {
    this.#max = Math.max(1, Math.floor(max));
    this.#limit = Math.min(this.#max, Math.max(1, Math.floor(start)));
  }

  /** The current limit, an integer between 1 and max. */
  get limit(): number {
    return Math.max(1, Math.floor(this.#limit));
  }

  get max(): number {
    return this.#max;
  }

  /** 429s seen so far (each one, not only those that halved the limit). */
  get rateLimited(): number {
    return this.#rateLimited;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get waiting(): number {
    let count = 0;
    for (let i = this.#head; i < this.#queue.length; i++) if (this.#queue[i]) count++;
    return count;
  }

  /** Lowers (or raises) the ceiling; the current limit is clamped to it. */
  setMax(max: number): void {
    this.#max = Math.max(1, Math.floor(max));
    this.#limit = Math.min(this.#limit, this.#max);
    this.#drain();
  }

  /** Resolves with a slot once fewer than `limit` calls are in flight; FIFO. */
  acquire(signal?: AbortSignal): Promise<Slot> {
    if (signal?.aborted) return Promise.reject(new LlmAbortError());
    if (this.#inFlight < this.limit && this.#head === this.#queue.length) {
      return Promise.resolve(this.#grant());
    }
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
      const index = this.#queue.length;
      this.#queue.push(waiter);
      if (signal) {
        waiter.onAbort = () => {
          if (this.#queue[index] !== waiter) return;
          this.#queue[index] = undefined;
          reject(new LlmAbortError());
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.#drain();
    });
  }

  #grant(): Slot {
    this.#inFlight++;
    const generation = this.#generation;
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        this.#inFlight--;
        this.#onOutcome(outcome, generation);
        this.#drain();
      },
    };
  }

  #onOutcome(outcome: SlotOutcome, generation: number): void {
    if (outcome === "ok") {
      const step = this.#limit < this.#threshold ? 1 : 1 / (4 * this.#limit);
      this.#limit = Math.min(this.#max, this.#limit + step);
    } else if (outcome === "rate_limited") {
      this.#rateLimited++;
      if (generation !== this.#generation) return;
      this.#threshold = Math.max(1, Math.floor(this.#limit) - 1);
      this.#limit = Math.max(1, this.#limit / 2);
      this.#generation++;
    }
  }

  #drain(): void {
    while (this.#inFlight < this.limit && this.#head < this.#queue.length) {
      const waiter = this.#queue[this.#head];
      this.#queue[this.#head] = undefined;
      this.#head++;
      if (!waiter) continue;
      if (waiter.signal && waiter.onAbort) {
        waiter.signal.removeEventListener("abort", waiter.onAbort);
      }
      waiter.resolve(this.#grant());
    }
    if (this.#head === this.#queue.length) {
      this.#queue.length = 0;
      this.#head = 0;
    }
  }
}

/**
 * One limiter per provider (base URL), shared by every client that talks to it: the generator and
 * the judge are separate clients but compete for the same server. When clients disagree on
 * max_concurrency the smallest wins (the provider's limit is the tighter one).
 */
export class ProviderLimiters {
  readonly #byProvider = new Map<string, AdaptiveLimiter>();

  forProvider(baseUrl: string, maxConcurrency: number): AdaptiveLimiter {
    const existing = this.#byProvider.get(baseUrl);
    if (existing) {
      if (maxConcurrency < existing.max) existing.setMax(maxConcurrency);
      return existing;
    }
    const limiter = new AdaptiveLimiter(maxConcurrency);
    this.#byProvider.set(baseUrl, limiter);
    return limiter;
  }

  /** Where each provider's limit stands now: what a run reports it settled at. */
  snapshot(): ProviderLimit[] {
    return [...this.#byProvider].map(([provider, limiter]) => ({
      provider,
      limit: limiter.limit,
      max: limiter.max,
      rate_limited: limiter.rateLimited,
    }));
  }
}

export interface ProviderLimit {
  provider: string;
  limit: number;
  max: number;
  /** 429s the provider answered. */
  rate_limited: number;
}

/** The process-wide registry used when a client is not given its own. */
export const defaultProviderLimiters = new ProviderLimiters();
