import { describe, expect, it } from "vitest";
import {
  containsContentToken,
  containsWholeWord,
  foldForSearch,
  surfaceForms,
} from "./contains.js";
import { contentTokenSet } from "./tokenize.js";

describe("containsWholeWord", () => {
  it("matches whole words only", () => {
    expect(containsWholeWord("the start of art", "art")).toBe(true);
    expect(containsWholeWord("the start", "art")).toBe(false);
    expect(containsWholeWord("harbour's", "harbour")).toBe(true);
    expect(containsWholeWord("metro站", "metro")).toBe(true);
    expect(containsWholeWord("métro", "tro")).toBe(false);
  });
});

describe("containsContentToken", () => {
  it("finds a token through its plural forms", () => {
    const hay = foldForSearch("Three Bridges and two Cities");
    expect(containsContentToken(hay, "bridge")).toBe(true);
    expect(containsContentToken(hay, "city")).toBe(true);
    expect(containsContentToken(hay, "ferry")).toBe(false);
  });

  it("matches Han tokens as substrings", () => {
    const hay = foldForSearch("澜汀市始建于1784年");
    expect(containsContentToken(hay, "始建")).toBe(true);
    expect(containsContentToken(hay, "地铁")).toBe(false);
  });

  it("agrees with tokenizing the text", () => {
    const text = "The Harbour Authority's berths, churches and ferries opened; glass buses ran.";
    const hay = foldForSearch(text);
    const tokens = contentTokenSet(text);
    for (const token of [
      "harbour",
      "authority",
      "berth",
      "church",
      "ferry",
      "glass",
      "bus",
      "ran",
      "open",
      "art",
    ]) {
      expect(containsContentToken(hay, token)).toBe(tokens.has(token));
    }
  });

  it("lists the surface forms of a token", () => {
    expect(surfaceForms("city")).toEqual(["city", "citys", "cities"]);
    expect(surfaceForms("church")).toEqual(["church", "churchs", "churches"]);
  });
});
