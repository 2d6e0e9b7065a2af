import { describe, expect, it } from "vitest";
import { isTyping, scoreOfDigit, shortcutFor } from "./shortcuts";

const press = (key: string, extra: Parameters<typeof shortcutFor>[0] = { key }) =>
  shortcutFor({ ...extra, key }, "1-10");

describe("the labelling view's shortcuts", () => {
  it("scores with digits on the scale, 0 meaning 10 on 1-10", () => {
    expect(press("7")).toEqual({ kind: "score", score: 7 });
    expect(press("0")).toEqual({ kind: "score", score: 10 });
    expect(shortcutFor({ key: "5" }, "1-5")).toEqual({ kind: "score", score: 5 });
    // Off the 1-5 scale, and no digits at all on pass/fail.
    expect(shortcutFor({ key: "6" }, "1-5")).toBeNull();
    expect(shortcutFor({ key: "0" }, "1-5")).toBeNull();
    expect(shortcutFor({ key: "1" }, "pass_fail")).toBeNull();
    expect(scoreOfDigit("x", "1-10")).toBeNull();
  });

  it("marks pass and fail with p and f on the pass/fail scale only", () => {
    expect(shortcutFor({ key: "p" }, "pass_fail")).toEqual({ kind: "pass", passed: true });
    expect(shortcutFor({ key: "F" }, "pass_fail")).toEqual({ kind: "pass", passed: false });
    expect(press("p")).toBeNull();
  });

  it("saves, moves, skips and asks for help", () => {
    expect(press("Enter")).toEqual({ kind: "save" });
    expect(press("n")).toEqual({ kind: "next" });
    expect(press("ArrowRight")).toEqual({ kind: "next" });
    expect(press("b")).toEqual({ kind: "previous" });
    expect(press("ArrowLeft")).toEqual({ kind: "previous" });
    expect(press("s")).toEqual({ kind: "skip" });
    expect(press("?")).toEqual({ kind: "help" });
    expect(press("x")).toBeNull();
    expect(press("Tab")).toBeNull();
  });

  it("stays out of the way while the person types in the note or a field", () => {
    for (const target of [
      { tagName: "TEXTAREA" },
      { tagName: "INPUT", type: "text" },
      { tagName: "input" },
      { tagName: "SELECT" },
      { tagName: "DIV", isContentEditable: true },
    ]) {
      expect(isTyping(target)).toBe(true);
      for (const key of ["7", "n", "s", "Enter", "?", "ArrowLeft"]) {
        expect(shortcutFor({ key, target }, "1-10")).toBeNull();
      }
      expect(shortcutFor({ key: "p", target }, "pass_fail")).toBeNull();
    }
    expect(isTyping({ tagName: "INPUT", type: "radio" })).toBe(false);
    expect(isTyping(null)).toBe(false);
  });

  it("leaves modified keys to the browser, Enter to a focused button, arrows to a radio group", () => {
    expect(press("n", { key: "n", ctrlKey: true })).toBeNull();
    expect(press("7", { key: "7", metaKey: true })).toBeNull();
    expect(press("b", { key: "b", altKey: true })).toBeNull();
    expect(press("Enter", { key: "Enter", target: { tagName: "BUTTON" } })).toBeNull();
    expect(press("Enter", { key: "Enter", target: { tagName: "A" } })).toBeNull();
    const radio = { tagName: "INPUT", type: "radio" };
    expect(press("ArrowRight", { key: "ArrowRight", target: radio })).toBeNull();
    // A digit or Enter on the focused score still scores and saves.
    expect(press("4", { key: "4", target: radio })).toEqual({ kind: "score", score: 4 });
    expect(press("Enter", { key: "Enter", target: radio })).toEqual({ kind: "save" });
  });
});
