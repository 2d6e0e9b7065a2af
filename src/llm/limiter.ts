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

/**
 * A concurrency limit that adapts to 429s, AIMD-style like TCP congestion control: the limit halves
 * on a 429 and grows by 1/limit per success (about +1 per window of successful calls), never above
 * `max`. Only one halving per window: a 429 from a call that started before the last halving was
 * already accounted for, so a burst of 429s does not collapse the limit to 1.
 */
export class AdaptiveLimiter {
  #max: number;
  #limit: number;
  #inFlight = 0;
  #generation = 0;
  readonly #queue: (Waiter | undefined)[] = [];
  #head = 0;

  constructor(max: number) {
    this.#max = Math.max(1, Math.floor(max));
    this.#limit = this.#max;
  }

  /** The current limit, an integer between 1 and max. */
  get limit(): number {
    return Math.max(1, Math.floor(this.#limit));
  }

  get max(): number {
    return this.#max;
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
      this.#limit = Math.min(this.#max, this.#limit + 1 / this.#limit);
    } else if (outcome === "rate_limited" && generation === this.#generation) {
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
}

/** The process-wide registry used when a client is not given its own. */
export const defaultProviderLimiters = new ProviderLimiters();
