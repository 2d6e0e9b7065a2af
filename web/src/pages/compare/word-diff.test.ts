import { describe, expect, it } from "vitest";
import { diffWords, MAX_CELLS, tokenize } from "./word-diff";

const render = (before: string, after: string) =>
  diffWords(before, after)
    .map((s) =>
      s.kind === "same" ? s.text : s.kind === "removed" ? `[-${s.text}]` : `{+${s.text}}`,
    )
    .join("");

describe("diffWords", () => {
  it("marks the words removed and added between two answers, keeping the rest", () => {
    expect(render("Line 1 opened in 1870.", "Line 1 opened in 1875.")).toBe(
      "Line 1 opened in [-1870.]{+1875.}",
    );
    expect(render("The bridge is old and grey.", "The bridge is grey.")).toBe(
      "The bridge is [-old and ]grey.",
    );
  });

  it("compares words, not the spaces between them", () => {
    expect(diffWords("a  b", "a b")).toEqual([{ kind: "same", text: "a b" }]);
  });

  it("keeps citation markers out of the words: each is one segment naming the passage it cites", () => {
    const cited = { before: new Set(["doc-3", "n1"]), after: new Set(["doc-3", "n2"]) };
    const segments = diffWords(
      "Line 1 opened in 1870 [doc-3]. It was rebuilt [n1].",
      "Line 1 opened in 1875 [doc-3]. It was rebuilt [n2].",
      cited,
    );
    expect(segments.filter((s) => s.citation !== undefined)).toEqual([
      { kind: "same", text: "", citation: "doc-3" },
      { kind: "removed", text: "", citation: "n1" },
      { kind: "added", text: "", citation: "n2" },
    ]);
    // No raw bracket reaches the words.
    expect(segments.map((s) => s.text).join("")).not.toMatch(/\[|\]/);
    // Without the ids, the markers are words like any other (brackets a result does not know).
    expect(render("in 1870 [doc-3].", "in 1875 [doc-3].")).toBe("in [-1870 ]{+1875 }[doc-3].");
  });

  it("counts each Chinese character as a word", () => {
    expect(tokenize("澜汀的小吃").map((t) => t.key)).toEqual(["澜", "汀", "的", "小", "吃"]);
    expect(render("澜汀最有名的小吃是鱼丸", "澜汀最有名的小吃是米糕")).toBe(
      "澜汀最有名的小吃是[-鱼丸]{+米糕}",
    );
  });

  it("keeps every word of both sides, in order (spaces as in the newer answer)", () => {
    const before = "one two three four five six";
    const after = "zero two four five seven six eight";
    const segments = diffWords(before, after);
    const side = (kinds: string[]) =>
      segments
        .filter((s) => kinds.includes(s.kind))
        .map((s) => s.text)
        .join("")
        .split(/\s+/)
        .filter(Boolean);
    expect(side(["same", "removed"])).toEqual(before.split(" "));
    expect(side(["same", "added"])).toEqual(after.split(" "));
    expect(segments.filter((s) => s.kind === "same").map((s) => s.text.trim())).toEqual([
      "two",
      "four five",
      "six",
    ]);
  });

  it("handles an empty side", () => {
    expect(diffWords("", "new answer")).toEqual([{ kind: "added", text: "new answer" }]);
    expect(diffWords("old", "")).toEqual([{ kind: "removed", text: "old" }]);
  });

  it("shows a huge middle as replaced whole instead of solving it", () => {
    const words = (prefix: string) =>
      Array.from({ length: Math.ceil(Math.sqrt(MAX_CELLS)) + 10 }, (_, i) => `${prefix}${i}`).join(
        " ",
      );
    const segments = diffWords(`same ${words("a")} end`, `same ${words("b")} end`);
    expect(segments.map((s) => s.kind)).toEqual(["same", "removed", "added", "same"]);
  });
});
