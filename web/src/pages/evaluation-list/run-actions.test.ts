import { describe, expect, it } from "vitest";
import { actionsFor } from "./run-actions";

describe("actionsFor", () => {
  it("offers what each status allows", () => {
    expect(actionsFor("RUNNING", 0)).toEqual(["pause", "cancel", "delete"]);
    expect(actionsFor("PAUSED", 0)).toEqual(["resume", "cancel", "delete"]);
    expect(actionsFor("COMPLETED", 0)).toEqual(["delete"]);
    expect(actionsFor("COMPLETED", 2)).toEqual(["retry", "delete"]);
    expect(actionsFor("CANCELLED", 0)).toEqual(["retry", "delete"]);
  });
});
