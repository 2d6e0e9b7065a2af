/**
 * One attempt's signal: aborts when the caller's signal does or after `timeoutMs`, and holds
 * nothing once released. Not `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: Node keeps a
 * composite or timeout signal that has an 'abort' listener alive until it aborts, and the openai
 * SDK adds a listener it never removes, so every call's signal, the SDK's controller and their
 * listeners stayed in the heap (about 20 MB over a 2,000-question `ragjudge eval`; docs/deploy.md).
 */
export interface AttemptSignal {
  readonly signal: AbortSignal;
  /** Whether the deadline (not the caller) aborted it. */
  readonly timedOut: boolean;
  /** Clears the timer and the caller's listener; call it when the attempt ends. */
  release(): void;
}

export function attemptSignal(caller: AbortSignal | undefined, timeoutMs: number): AttemptSignal {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  const onAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) onAbort();
  else caller?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    release() {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onAbort);
    },
  };
}
