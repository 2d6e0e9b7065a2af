import { describe, expect, it } from "vitest";
import { groupRuns } from "./run-groups";

const arena = (id: string, contestant: string) => ({ id, name: `arena ${id}`, contestant });

describe("groupRuns", () => {
  it("keeps a person's own runs first, in order, and groups an arena's runs under it", () => {
    const runs = [
      { id: "r1", arena: null },
      { id: "x-terse", arena: arena("x", "terse") },
      { id: "r2" },
      { id: "y-a", arena: arena("y", "a") },
      { id: "x-verbose", arena: arena("x", "verbose") },
    ];
    const groups = groupRuns(runs);
    expect(groups.own.map((r) => r.id)).toEqual(["r1", "r2"]);
    expect(groups.arenas.map((g) => [g.id, g.name, g.runs.map((r) => r.id)])).toEqual([
      ["x", "arena x", ["x-terse", "x-verbose"]],
      ["y", "arena y", ["y-a"]],
    ]);
  });
});
