// A plain state machine for the loops: nodes are async functions returning a partial state, edges
// are fixed or chosen by a router. No graph runtime: a step costs a function call, an object
// spread and two clock reads (bench/rag-loops.ts measures it).

import { type CodedMessage, codedMessage } from "../../text/index.js";

/** The terminal every machine can route to, as LangGraph's END. */
export const END = "__end__";
export type End = typeof END;

/** What every node receives besides the state: the caller's context and the run's signal. */
export type RunContext<C> = C & {
  /** Aborts on the caller's signal or when the run's budget is exhausted. */
  readonly signal: AbortSignal;
};

/** A node reads the state and returns only the fields it changes. */
export type NodeFn<S, C> = (state: Readonly<S>, ctx: RunContext<C>) => Promise<Partial<S>>;

/** A conditional edge: a named router returning the next node, an exit or END. */
export interface RouterEdge<S, T extends string> {
  router: string;
  route: (state: Readonly<S>) => T;
  /** Every target the router may return, with the condition shown on the diagram. */
  targets: Readonly<Partial<Record<T, string>>>;
}

export interface MachineSpec<S, C, N extends string, X extends string> {
  /** Names the machine in traces: "quality" or "answer". */
  name: string;
  start: N;
  nodes: { readonly [K in N]: NodeFn<S, C> };
  /** Where each node leads: a fixed target, or a router. */
  edges: { readonly [K in N]: N | X | RouterEdge<S, N | X> };
  /** Terminals: END and any named hand-off (the quality loop exits to "generate"). */
  exits: readonly X[];
  /** Where a run goes when its budget is exhausted. */
  timeoutExit: X;
  /** One line saying what a step changed; runs on every step, so keep it cheap. */
  describe(node: N, update: Partial<S>, state: Readonly<S>): string;
  /** The same step in plain words for a person, as a code worded in their language. */
  explain?(node: N, update: Partial<S>, state: Readonly<S>): CodedMessage;
  /** A guard against a routing bug: more steps than this throws. */
  maxSteps?: number;
}

export interface TraceStep {
  machine: string;
  node: string;
  /** Milliseconds since the run started. */
  started_ms: number;
  duration_ms: number;
  /** What changed, e.g. "grade=low score=0.3120 issues=3". */
  summary: string;
  /** What the step did in plain words, as a code (text/user-messages.ts); absent in old traces. */
  summary_message?: CodedMessage;
  /** The node, exit or END the run went to next. */
  next: string;
  /** The router that chose `next`, when the edge is conditional. */
  router?: string;
  /** The step was cut short (or never started) because the budget ran out. */
  timed_out?: boolean;
}

export interface MachineRun<S, X extends string> {
  state: S;
  trace: TraceStep[];
  /** The terminal reached. */
  exit: X;
  timed_out: boolean;
  duration_ms: number;
}

export interface RunOptions {
  /** The caller's cancellation: aborting it rejects the run with the abort reason. */
  signal?: AbortSignal;
  /** Total wall time; when it runs out the call in flight is aborted and the run takes timeoutExit. */
  budgetMs?: number;
  /** The clock, in milliseconds; default performance.now. */
  clock?: () => number;
}

/** A node failed for a reason other than the budget; names the machine and node at fault. */
export class LoopStepError extends Error {
  override readonly name = "LoopStepError";
  constructor(
    readonly machine: string,
    readonly node: string,
    options: { cause: unknown },
  ) {
    super(
      `${machine} loop, node ${node}: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`,
      options,
    );
  }
}

const DEFAULT_MAX_STEPS = 100;

function isRouter<S, T extends string>(edge: unknown): edge is RouterEdge<S, T> {
  return typeof edge === "object" && edge !== null;
}

/**
 * The run's signal: aborts when the caller's signal does or when the budget's timer fires. Built
 * from one AbortController, an unref'd timer and a listener, all released when the run ends:
 * AbortSignal.any([signal, AbortSignal.timeout(ms)]) does the same for about 85 µs per run on
 * Node 20, against about 10 µs here (bench/rag-loops.ts).
 */
class RunSignal {
  readonly controller = new AbortController();
  expired = false;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #external: AbortSignal | undefined;
  readonly #onAbort: (() => void) | undefined;

  constructor(external: AbortSignal | undefined, budgetMs: number | undefined) {
    if (budgetMs !== undefined) {
      this.#timer = setTimeout(() => {
        this.expired = true;
        this.controller.abort(
          new DOMException(`budget of ${budgetMs} ms exhausted`, "TimeoutError"),
        );
      }, budgetMs);
      this.#timer.unref();
    }
    if (external !== undefined) {
      this.#external = external;
      this.#onAbort = () => this.controller.abort(external.reason);
      external.addEventListener("abort", this.#onAbort, { once: true });
    }
  }

  release(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#onAbort !== undefined) this.#external?.removeEventListener("abort", this.#onAbort);
  }
}

/**
 * Runs a machine from `spec.start` until an exit. The budget is enforced twice: a timer aborts
 * the call in flight (nodes pass `ctx.signal` to every call), and the clock is read before each
 * step so a run never starts a node after its time is up.
 */
export async function runMachine<
  S extends object,
  C extends object,
  N extends string,
  X extends string,
>(
  spec: MachineSpec<S, C, N, X>,
  initial: S,
  ctx: C,
  options: RunOptions = {},
): Promise<MachineRun<S, X>> {
  options.signal?.throwIfAborted();
  const run = new RunSignal(options.signal, options.budgetMs);
  try {
    return await runSteps(spec, initial, ctx, options, run);
  } finally {
    run.release();
  }
}

async function runSteps<S extends object, C extends object, N extends string, X extends string>(
  spec: MachineSpec<S, C, N, X>,
  initial: S,
  ctx: C,
  options: RunOptions,
  run: RunSignal,
): Promise<MachineRun<S, X>> {
  const now = options.clock ?? (() => performance.now());
  const started = now();
  const budgetMs = options.budgetMs;
  const runCtx = { ...ctx, signal: run.controller.signal } as RunContext<C>;
  const exits: readonly string[] = spec.exits;
  const maxSteps = spec.maxSteps ?? DEFAULT_MAX_STEPS;
  const trace: TraceStep[] = [];
  const outOfTime = () => run.expired || (budgetMs !== undefined && now() - started >= budgetMs);

  let state = initial;
  let current: string = spec.start;
  while (!exits.includes(current)) {
    const node = current as N;
    if (trace.length >= maxSteps) {
      throw new LoopStepError(spec.name, node, {
        cause: new Error(`more than ${maxSteps} steps: a router never reaches an exit`),
      });
    }
    options.signal?.throwIfAborted();
    const stepStart = now();
    if (outOfTime()) {
      trace.push({
        machine: spec.name,
        node,
        started_ms: stepStart - started,
        duration_ms: 0,
        summary: `not run: budget of ${budgetMs} ms exhausted`,
        summary_message: codedMessage("trace.not_run", { ms: budgetMs ?? 0 }),
        next: spec.timeoutExit,
        timed_out: true,
      });
      current = spec.timeoutExit;
      break;
    }
    let update: Partial<S>;
    try {
      update = await spec.nodes[node](state, runCtx);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      if (outOfTime()) {
        const end = now();
        trace.push({
          machine: spec.name,
          node,
          started_ms: stepStart - started,
          duration_ms: end - stepStart,
          summary: `aborted: budget of ${budgetMs} ms exhausted (${errorName(error)})`,
          summary_message: codedMessage("trace.aborted", { ms: budgetMs ?? 0 }),
          next: spec.timeoutExit,
          timed_out: true,
        });
        current = spec.timeoutExit;
        break;
      }
      throw new LoopStepError(spec.name, node, { cause: error });
    }
    state = { ...state, ...update };
    const edge = spec.edges[node];
    let next: string;
    let router: string | undefined;
    if (isRouter<S, N | X>(edge)) {
      next = edge.route(state);
      router = edge.router;
    } else {
      next = edge;
    }
    const step: TraceStep = {
      machine: spec.name,
      node,
      started_ms: stepStart - started,
      duration_ms: now() - stepStart,
      summary: spec.describe(node, update, state),
      next,
    };
    if (spec.explain) step.summary_message = spec.explain(node, update, state);
    if (router !== undefined) step.router = router;
    trace.push(step);
    current = next;
  }
  return {
    state,
    trace,
    exit: current as X,
    timed_out: trace.at(-1)?.timed_out === true,
    duration_ms: now() - started,
  };
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
