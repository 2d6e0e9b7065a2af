import { describe, expect, it } from "vitest";
import { roleCan } from "./session";

describe("roleCan", () => {
  it("lets an editor run but not manage, a viewer only read, an annotator only label", () => {
    expect(roleCan("owner", "manage")).toBe(true);
    expect(roleCan("editor", "write")).toBe(true);
    expect(roleCan("editor", "manage")).toBe(false);
    expect(roleCan("viewer", "read")).toBe(true);
    expect(roleCan("viewer", "write")).toBe(false);
    expect(roleCan("annotator", "label")).toBe(true);
    expect(roleCan("annotator", "read")).toBe(false);
  });
});
