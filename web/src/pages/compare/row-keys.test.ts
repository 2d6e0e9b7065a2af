import { describe, expect, it } from "vitest";
import { rowAfterKey } from "./row-keys";

describe("rowAfterKey", () => {
  it("moves down with j and up with k, stopping at the ends", () => {
    expect(rowAfterKey({ key: "j" }, -1, 3)).toBe(0);
    expect(rowAfterKey({ key: "j" }, 0, 3)).toBe(1);
    expect(rowAfterKey({ key: "j" }, 2, 3)).toBe(2);
    expect(rowAfterKey({ key: "k" }, 2, 3)).toBe(1);
    expect(rowAfterKey({ key: "k" }, 0, 3)).toBe(0);
    expect(rowAfterKey({ key: "k" }, -1, 3)).toBe(0);
  });

  it("leaves other keys, modifiers, typing and an empty table alone", () => {
    expect(rowAfterKey({ key: "x" }, 0, 3)).toBeNull();
    expect(rowAfterKey({ key: "J" }, 0, 3)).toBeNull();
    expect(rowAfterKey({ key: "j", ctrlKey: true }, 0, 3)).toBeNull();
    expect(rowAfterKey({ key: "j", metaKey: true }, 0, 3)).toBeNull();
    expect(rowAfterKey({ key: "j", target: { tagName: "INPUT", type: "text" } }, 0, 3)).toBeNull();
    expect(rowAfterKey({ key: "j", target: { tagName: "SELECT" } }, 0, 3)).toBeNull();
    // A ticked checkbox ("Show only changed") is not typing.
    expect(rowAfterKey({ key: "j", target: { tagName: "INPUT", type: "checkbox" } }, 0, 3)).toBe(1);
    expect(rowAfterKey({ key: "j" }, -1, 0)).toBeNull();
  });
});
