import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { END, type End, LoopStepError, type MachineSpec, runMachine } from "./state-machine.js";

interface Counter {
  n: number;
  log: string[];
}
type Node = "inc" | "check" | "slow";

function counterSpec(
  overrides: Partial<MachineSpec<Counter, { limit: number }, Node, End | "done">> = {},
): MachineSpec<Counter, { limit: number }, Node, End | "done"> {
  return {
    name: "counter",
    start: "inc",
    nodes: {
      inc: async (s) => ({ n: s.n + 1, log: [...s.log, "inc"] }),
      check: async (s) => ({ log: [...s.log, `check ${s.n}`] }),
      slow: async (_s, ctx) => {
        await sleep(5_000, undefined, { signal: ctx.signal });
        return {};
      },
    },
    edges: {
      inc: "check",
      check: {
        router: "check_route",
        route: (s) => (s.n >= 3 ? "done" : "inc"),
        targets: { inc: "n < 3", done: "n >= 3" },
      },
      slow: END,
    },
    exits: [END, "done"],
    timeoutExit: END,
    describe: (node, update) => `${node}: ${Object.keys(update).join(",")}`,
    ...overrides,
  };
}

describe("runMachine", () => {
  it("runs nodes, merges partial states, follows routers and records the trace", async () => {
    const run = await runMachine(counterSpec(), { n: 0, log: [] }, { limit: 3 });
    expect(run.exit).toBe("done");
    expect(run.timed_out).toBe(false);
    expect(run.state).toEqual({
      n: 3,
      log: ["inc", "check 1", "inc", "check 2", "inc", "check 3"],
    });
    expect(run.trace.map((s) => `${s.node}->${s.next}`)).toEqual([
      "inc->check",
      "check->inc",
      "inc->check",
      "check->inc",
      "inc->check",
      "check->done",
    ]);
    expect(run.trace[1]).toMatchObject({
      machine: "counter",
      router: "check_route",
      summary: "check: log",
    });
    for (const step of run.trace) {
      expect(step.duration_ms).toBeGreaterThanOrEqual(0);
      expect(step.started_ms).toBeGreaterThanOrEqual(0);
    }
  });

  it("aborts the node in flight when the budget runs out and takes the timeout exit", async () => {
    let seen: AbortSignal | undefined;
    const spec = counterSpec({
      start: "slow",
      nodes: {
        ...counterSpec().nodes,
        slow: async (_s, ctx) => {
          seen = ctx.signal;
          // An hour: only the budget's abort can end this node within the test's time.
          await sleep(3_600_000, undefined, { signal: ctx.signal });
          return {};
        },
      },
    });
    const run = await runMachine(spec, { n: 0, log: [] }, { limit: 1 }, { budgetMs: 50 });
    expect(seen?.aborted).toBe(true);
    expect(run.timed_out).toBe(true);
    expect(run.exit).toBe(END);
    expect(run.trace).toHaveLength(1);
    expect(run.trace[0]).toMatchObject({ node: "slow", next: END, timed_out: true });
    expect(run.trace[0]?.summary).toMatch(/^aborted: budget of 50 ms exhausted/);
    expect(run.trace[0]?.summary_message).toMatchObject({
      code: "trace.aborted",
      message: "Stopped: the time budget of 50 ms ran out.",
    });
  });

  it("does not start a node once the budget is spent", async () => {
    let clock = 0;
    const spec = counterSpec({
      nodes: {
        ...counterSpec().nodes,
        inc: async (s) => {
          clock += 30;
          return { n: s.n + 1 };
        },
      },
    });
    const run = await runMachine(
      spec,
      { n: 0, log: [] },
      { limit: 3 },
      {
        budgetMs: 50,
        clock: () => clock,
      },
    );
    expect(run.timed_out).toBe(true);
    expect(run.trace.map((s) => s.node)).toEqual(["inc", "check", "inc", "check"]);
    expect(run.trace.at(-1)).toMatchObject({
      summary: "not run: budget of 50 ms exhausted",
      timed_out: true,
    });
  });

  it("rejects when the caller aborts, and names the node of any other failure", async () => {
    const controller = new AbortController();
    const spec = counterSpec({ start: "slow" });
    const pending = runMachine(
      spec,
      { n: 0, log: [] },
      { limit: 1 },
      { signal: controller.signal },
    );
    controller.abort(new Error("caller went away"));
    await expect(pending).rejects.toThrow("caller went away");

    const failing = counterSpec({
      nodes: {
        ...counterSpec().nodes,
        check: async () => {
          throw new Error("boom");
        },
      },
    });
    const error = await runMachine(failing, { n: 0, log: [] }, { limit: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(LoopStepError);
    expect(error).toMatchObject({ machine: "counter", node: "check" });
    expect(error.message).toBe("counter loop, node check: boom");
  });

  it("stops a router that never reaches an exit", async () => {
    const spec = counterSpec({
      maxSteps: 5,
      edges: {
        ...counterSpec().edges,
        check: { router: "loop_forever", route: () => "inc", targets: { inc: "always" } },
      },
    });
    await expect(runMachine(spec, { n: 0, log: [] }, { limit: 1 })).rejects.toThrow(
      /more than 5 steps/,
    );
  });
});
