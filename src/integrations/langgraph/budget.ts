// The loops' time budgets in a LangGraph run. ragjudge's own state machine holds one timer for a
// whole run; here each node runs its call under what is left, counted from a start time kept in
// the state, so a checkpointed run carries its budget with it.

/**
 * Runs `work` under what is left of the budget: the call in flight is aborted when it runs out,
 * as ragjudge's own loop does, and not waited for even if it ignores its signal (a user's
 * retriever may). `undefined` when the budget, not the caller, ended it.
 */
export async function withinBudget<T>(
  leftMs: number,
  outer: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T | undefined> {
  outer?.throwIfAborted();
  if (leftMs <= 0) return undefined;
  const budget = new AbortController();
  const signal = outer ? AbortSignal.any([outer, budget.signal]) : budget.signal;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const spent = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      budget.abort(new DOMException("the loop's time budget is exhausted", "TimeoutError"));
      resolve(undefined);
    }, leftMs);
  });
  try {
    return await Promise.race([work(signal), spent]);
  } catch (error) {
    if (budget.signal.aborted && !outer?.aborted) return undefined;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
