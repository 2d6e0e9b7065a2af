import { describe, expect, it } from "vitest";
import { comparePair } from "./compare-pair";

const older = { id: "old", gmt_created: "2026-01-01T10:00:00.000Z" };
const newer = { id: "new", gmt_created: "2026-01-02T09:00:00.000Z" };

describe("comparePair", () => {
  it("makes the older run the base whichever was ticked first", () => {
    expect(comparePair([newer, older])).toEqual({ base: "old", head: "new" });
    expect(comparePair([older, newer])).toEqual({ base: "old", head: "new" });
  });

  it("keeps the tick order for runs created at the same time", () => {
    const twin = { id: "twin", gmt_created: older.gmt_created };
    expect(comparePair([twin, older])).toEqual({ base: "twin", head: "old" });
  });

  it("needs exactly two runs", () => {
    expect(comparePair([older])).toBeUndefined();
    expect(comparePair([older, newer, older])).toBeUndefined();
  });
});
