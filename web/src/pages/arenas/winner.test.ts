import { describe, expect, it } from "vitest";
import { winnerOf } from "./winner";

const arena = (names: string[], level: string[][] = []) => ({
  status: "COMPLETED",
  results: { contestants: names.map((name) => ({ name })), not_distinguishable: level },
});

describe("winnerOf", () => {
  it("names the top-rated contestant of a compared arena", () => {
    expect(winnerOf(arena(["verbose", "terse"]))).toEqual({ name: "verbose", level: null });
  });

  it("names the runner-up the set cannot tell apart from it, either way round", () => {
    expect(winnerOf(arena(["a", "b", "c"], [["b", "a"]]))).toEqual({ name: "a", level: "b" });
    expect(winnerOf(arena(["a", "b", "c"], [["b", "c"]]))).toEqual({ name: "a", level: null });
  });

  it("has none before the arena is compared, or when it failed", () => {
    expect(winnerOf({ status: "PENDING", results: null })).toBeNull();
    expect(winnerOf({ ...arena(["a", "b"]), status: "FAILED" })).toBeNull();
  });
});
