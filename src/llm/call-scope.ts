import { AsyncLocalStorage } from "node:async_hooks";
import type { CallRecord } from "./client.js";

/** The calls of one piece of work, and the scope around it (its calls count there too). */
interface Scope {
  calls: CallRecord[];
  parent: Scope | undefined;
}

const current = new AsyncLocalStorage<Scope>();

/** What a piece of work did, and every LLM call it made, whether it finished or threw. */
export type RecordedWork<T> =
  { ok: true; value: T; calls: CallRecord[] } | { ok: false; error: unknown; calls: CallRecord[] };

/**
 * Runs `work` and collects the record of every call any LlmClient makes under it, concurrent
 * work elsewhere left out (the scope follows the async context, not the client). Unlike a result's
 * own list of calls, this keeps what failed work spent before it failed: a generation paid for
 * before its review threw, an embedding, a re-asked call.
 */
export async function recordCalls<T>(work: () => Promise<T>): Promise<RecordedWork<T>> {
  const scope: Scope = { calls: [], parent: current.getStore() };
  try {
    const value = await current.run(scope, work);
    return { ok: true, value, calls: scope.calls };
  } catch (error) {
    return { ok: false, error, calls: scope.calls };
  }
}

/** Called by the client for each call it records: every enclosing scope gets it. */
export function noteCall(record: CallRecord): void {
  for (let scope = current.getStore(); scope; scope = scope.parent) scope.calls.push(record);
}
