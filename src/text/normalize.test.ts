import { describe, expect, it } from "vitest";
import { codePointLength, isAscii, normalizeText } from "./normalize.js";

describe("normalizeText", () => {
  it("folds full-width characters, collapses whitespace and trims", () => {
    expect(normalizeText("  Ｈｅｌｌｏ\t\n  ｗｏｒｌｄ１２３  ")).toBe("Hello world123");
  });

  it("leaves single spaces alone and handles empty text", () => {
    expect(normalizeText("a b c")).toBe("a b c");
    expect(normalizeText(" \n\t ")).toBe("");
  });

  it("keeps Chinese text and its punctuation", () => {
    expect(normalizeText("澜汀市 始建于１７８４年。")).toBe("澜汀市 始建于1784年。");
  });
});

describe("isAscii", () => {
  it("tells ASCII from anything else", () => {
    expect(isAscii("plain text 123 [1].")).toBe(true);
    expect(isAscii("café")).toBe(false);
    expect(isAscii("澜汀")).toBe(false);
    expect(isAscii("")).toBe(true);
  });
});

describe("codePointLength", () => {
  it("counts an astral character once", () => {
    expect(codePointLength("abc")).toBe(3);
    expect(codePointLength("𠀋x")).toBe(2);
    expect(codePointLength("澜汀")).toBe(2);
  });
});
