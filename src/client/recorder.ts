// `ragjudge/client`: records a production app's answers on a ragjudge server (POST
// /api/v1/answers). It batches, retries what the server could not take yet, and flushes when the
// process is about to exit. It needs nothing but `fetch`: no other part of ragjudge is loaded.

import type { AnswerInputIn as AnswerInput } from "../production/index.js";

export type { AnswerInput };

export interface RecorderOptions {
  /** The server, e.g. "http://127.0.0.1:7860". Default: RAGJUDGE_URL. */
  url?: string;
  /** An API token (or ingest key). Default: RAGJUDGE_TOKEN. */
  token?: string;
  /** Answers sent in one request (default 100, at most 1,000). */
  batchSize?: number;
  /** A partial batch is sent after this long (default 1,000 ms). */
  flushIntervalMs?: number;
  /** Tries per batch when the server is busy or unreachable (default 6). */
  maxAttempts?: number;
  /** Answers held at most; past it the oldest are dropped and reported (default 10,000). */
  maxQueue?: number;
  /** Told of anything not recorded: items the server refused, batches given up, overflow. */
  onError?: (error: RecorderError) => void;
  fetch?: typeof fetch;
}

export interface RecorderError {
  kind: "refused" | "gave_up" | "overflow";
  message: string;
  /** For `refused`: each refused item's field and why, as the server said. */
  items?: { item: number; path: string; message: string }[];
}

export interface FlushResult {
  accepted: number;
  duplicates: number;
  refused: number;
}

/** What a person said about an answer, named by the ids the app recorded it with. */
export interface FeedbackInput {
  conversation_id: string;
  message_id: string;
  thumb?: "up" | "down";
  /** From 0 (worst) to 1 (best). */
  score?: number;
  comment?: string;
}

export interface Recorder {
  /** Queues an answer; never throws and never waits. */
  record(answer: AnswerInput): void;
  /**
   * Sends everything queued now; resolves when the server has it or it was given up, with what
   * was sent since the last flush (batches sent on their own included).
   */
  flush(): Promise<FlushResult>;
  /**
   * Sends a person's feedback on an answer, after the answers recorded before it (so the answer
   * is there to attach it to); retried like answers. Never throws: resolves true when stored,
   * false when refused or given up (and onError is told).
   */
  recordFeedback(feedback: FeedbackInput): Promise<boolean>;
  /** Flushes and stops the timer. */
  close(): Promise<FlushResult>;
}

interface BatchReply {
  accepted?: number;
  duplicates?: number;
  errors?: { item: number; path: string; message: string }[];
  issues?: { path: string; message: string }[];
}

const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

const env = (name: string): string | undefined =>
  typeof process === "undefined" ? undefined : process.env[name];

/** Seconds or an HTTP date, as Retry-After may say; undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createRecorder(options: RecorderOptions = {}): Recorder {
  const url = (options.url ?? env("RAGJUDGE_URL") ?? "").replace(/\/+$/, "");
  const token = options.token ?? env("RAGJUDGE_TOKEN") ?? "";
  const batchSize = Math.min(1000, Math.max(1, options.batchSize ?? 100));
  const maxAttempts = Math.max(1, options.maxAttempts ?? 6);
  const maxQueue = options.maxQueue ?? 10_000;
  const send = options.fetch ?? fetch;
  const report = options.onError ?? (() => {});
  const queue: AnswerInput[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sending: Promise<void> = Promise.resolve();

  if (!url) throw new TypeError("ragjudge/client: no server URL (the url option or RAGJUDGE_URL)");

  async function post(batch: AnswerInput[]): Promise<FlushResult> {
    for (let attempt = 1; ; attempt++) {
      let wait: number | undefined;
      try {
        const response = await send(`${url}/api/v1/answers`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ answers: batch }),
        });
        const reply = (await response.json().catch(() => ({}))) as BatchReply;
        if (response.ok) {
          if (reply.errors?.length) {
            report({
              kind: "refused",
              message: "the server refused some answers",
              items: reply.errors,
            });
          }
          const refused = new Set(reply.errors?.map((e) => e.item)).size;
          return { accepted: reply.accepted ?? 0, duplicates: reply.duplicates ?? 0, refused };
        }
        if (!RETRYABLE.has(response.status)) {
          report({
            kind: "refused",
            message: `the server answered ${response.status}`,
            items: (reply.issues ?? []).map((issue) => ({ item: 0, ...issue })),
          });
          return { accepted: 0, duplicates: 0, refused: batch.length };
        }
        wait = retryAfterMs(response.headers.get("retry-after"));
      } catch {
        // Unreachable or cut off: the batch is sent again; the server stores each answer once.
      }
      if (attempt >= maxAttempts) {
        report({
          kind: "gave_up",
          message: `gave up ${batch.length} answers after ${attempt} tries`,
        });
        return { accepted: 0, duplicates: 0, refused: batch.length };
      }
      await sleep(wait ?? Math.min(30_000, 200 * 2 ** (attempt - 1) * (0.5 + Math.random())));
    }
  }

  async function postFeedback(feedback: FeedbackInput): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      let wait: number | undefined;
      try {
        const response = await send(`${url}/api/v1/answers/feedback`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify(feedback),
        });
        if (response.ok) return true;
        if (!RETRYABLE.has(response.status)) {
          const reply = (await response.json().catch(() => ({}))) as BatchReply & {
            message?: string;
          };
          report({
            kind: "refused",
            message: `the server refused the feedback (${response.status}): ${reply.message ?? ""}`,
            items: (reply.issues ?? []).map((issue) => ({ item: 0, ...issue })),
          });
          return false;
        }
        wait = retryAfterMs(response.headers.get("retry-after"));
      } catch {
        // Unreachable or cut off: sent again (feedback is not de-duplicated, but it was not stored).
      }
      if (attempt >= maxAttempts) {
        report({ kind: "gave_up", message: `gave up feedback after ${attempt} tries` });
        return false;
      }
      await sleep(wait ?? Math.min(30_000, 200 * 2 ** (attempt - 1) * (0.5 + Math.random())));
    }
  }

  /** What was sent since flush() last reported. */
  let unreported: FlushResult = { accepted: 0, duplicates: 0, refused: 0 };

  function drain(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    // Batches go one after another, so answers arrive in the order they were recorded.
    sending = sending.then(async () => {
      while (queue.length > 0) {
        const result = await post(queue.splice(0, batchSize));
        unreported.accepted += result.accepted;
        unreported.duplicates += result.duplicates;
        unreported.refused += result.refused;
      }
    });
    return sending;
  }

  async function flush(): Promise<FlushResult> {
    await drain();
    const result = unreported;
    unreported = { accepted: 0, duplicates: 0, refused: 0 };
    return result;
  }

  const recorder: Recorder = {
    record(answer) {
      queue.push(answer);
      if (queue.length > maxQueue) {
        const dropped = queue.splice(0, queue.length - maxQueue).length;
        report({
          kind: "overflow",
          message: `dropped the ${dropped} oldest answers: the queue is full`,
        });
      }
      if (queue.length >= batchSize) void drain();
      else if (!timer) {
        timer = setTimeout(() => void drain(), options.flushIntervalMs ?? 1000);
        // A queued answer never keeps the process alive; beforeExit sends it.
        (timer as { unref?: () => void }).unref?.();
      }
    },
    flush,
    async recordFeedback(feedback) {
      await drain();
      return postFeedback(feedback);
    },
    async close() {
      const result = await flush();
      if (typeof process !== "undefined") process.off?.("beforeExit", onBeforeExit);
      return result;
    },
  };
  const onBeforeExit = () => {
    if (queue.length > 0) void drain();
  };
  if (typeof process !== "undefined") process.on?.("beforeExit", onBeforeExit);
  return recorder;
}

let shared: Recorder | undefined;

/**
 * Records one answer through a recorder shared by the process, configured from RAGJUDGE_URL and
 * RAGJUDGE_TOKEN on first use.
 */
export function recordAnswer(answer: AnswerInput): void {
  shared ??= createRecorder();
  shared.record(answer);
}

/** Sends what recordAnswer queued; for short scripts and tests. */
export function flushAnswers(): Promise<FlushResult> {
  return shared?.flush() ?? Promise.resolve({ accepted: 0, duplicates: 0, refused: 0 });
}

/** Sends feedback on an answer through the shared recorder, after the answers queued before it. */
export function recordFeedback(feedback: FeedbackInput): Promise<boolean> {
  shared ??= createRecorder();
  return shared.recordFeedback(feedback);
}
