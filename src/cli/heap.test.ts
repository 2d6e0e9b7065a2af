import { describe, expect, it } from "vitest";
import { DEFAULT_HEAP_GROWING_PERCENT, heapGrowingPercent } from "./heap.js";

// Only the decision is tested: setting V8's flags here would change the shared test worker's heap.
// What the setting does to peak RSS is measured by `npm run bench -- evals`, not here: V8's heap
// sizing varies too much from run to run for a test to pin it.

describe("heapGrowingPercent", () => {
  it("rejects a value that is not an integer from 0 to 1000, naming the variable", () => {
    for (const bad of ["abc", "-5", "1.5", "5000"]) {
      expect(() => heapGrowingPercent({ RAGJUDGE_HEAP_GROWING_PERCENT: bad }, [])).toThrow(
        /RAGJUDGE_HEAP_GROWING_PERCENT must be an integer from 0 to 1000/,
      );
    }
  });

  it("leaves V8 alone for 0 or when node was given the flag", () => {
    expect(heapGrowingPercent({ RAGJUDGE_HEAP_GROWING_PERCENT: "0" }, [])).toBeNull();
    expect(heapGrowingPercent({}, ["--heap-growing-percent=200"])).toBeNull();
  });

  it("sets the default, or the configured percent", () => {
    expect(heapGrowingPercent({}, [])).toBe(DEFAULT_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent({ RAGJUDGE_HEAP_GROWING_PERCENT: " 80 " }, [])).toBe(80);
  });
});
