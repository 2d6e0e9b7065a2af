import { describe, expect, it } from "vitest";
import { LIFTOFF_ONLY, liftoffOnly, wasmTierArgs } from "./wasm-tiers.js";

// Only the decision is tested: setting the flag here would change the shared test worker (which
// vitest.config.ts starts with it anyway). What it saves is measured in docs/deploy.md.

describe("liftoffOnly", () => {
  it("keeps WebAssembly on Liftoff by default, and for 0", () => {
    expect(liftoffOnly({}, [])).toBe(true);
    expect(liftoffOnly({ RAGJUDGE_WASM_TIER_UP: " 0 " }, [])).toBe(true);
    expect(liftoffOnly({ RAGJUDGE_WASM_TIER_UP: "0" }, [], true)).toBe(true);
    expect(wasmTierArgs({}, [])).toEqual([LIFTOFF_ONLY]);
  });

  it("lets V8 tier up in a long-lived process, and for 1", () => {
    expect(liftoffOnly({}, [], true)).toBe(false);
    expect(liftoffOnly({ RAGJUDGE_WASM_TIER_UP: "1" }, [])).toBe(false);
    expect(wasmTierArgs({ RAGJUDGE_WASM_TIER_UP: "1" }, [])).toEqual([]);
  });

  it("leaves V8 alone when node was given a WebAssembly tiering flag", () => {
    for (const flag of [
      "--liftoff-only",
      "--no-liftoff",
      "--wasm-tier-up",
      "--no-wasm-dynamic-tiering",
    ]) {
      expect(liftoffOnly({}, [flag])).toBe(false);
    }
    expect(liftoffOnly({}, ["--max-old-space-size=512"])).toBe(true);
  });

  it("passes node's own tiering flags on to a child, which does not inherit them", () => {
    const execArgv = ["--max-old-space-size=512", "--no-wasm-tier-up", "--liftoff"];
    expect(wasmTierArgs({ RAGJUDGE_WASM_TIER_UP: "0" }, execArgv)).toEqual([
      "--no-wasm-tier-up",
      "--liftoff",
    ]);
  });

  it("rejects any other value, naming the variable", () => {
    for (const bad of ["yes", "2", "true"]) {
      expect(() => liftoffOnly({ RAGJUDGE_WASM_TIER_UP: bad }, [])).toThrow(
        /RAGJUDGE_WASM_TIER_UP must be 0 or 1/,
      );
    }
  });
});
