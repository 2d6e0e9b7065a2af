import { describe, expect, it } from "vitest";
import {
  containsContentToken,
  contentTokenIndexes,
  containsWholeWord,
  foldForSearch,
  surfaceForms,
} from "./contains.js";
import { contentTokenSet } from "./tokenize.js";
import { seededRandom } from "../../test/support/seeded-random.js";

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

describe("containsContentToken, randomized", () => {
  it("finds a token when the text holds one of its surface forms as a whole word", () => {
    // Seeded, so a failure reproduces.
    const random = seededRandom(23);
    const words = [
      "tonne",
      "tonnes",
      "tonneses",
      "city",
      "cities",
      "citys",
      "church",
      "churches",
      "box",
      "boxes",
      "bus",
      "buses",
      "glass",
      "glasses",
      "art",
      "start",
      "arts",
      "é",
      "1",
    ];
    const separators = [" ", "", "-", "'s ", ", "];
    const tokens = ["tonne", "city", "church", "box", "bus", "glass", "art", "start"];
    let found = 0;
    for (let n = 0; n < 3000; n++) {
      let text = "";
      for (let i = 0, count = Math.floor(random() * 8); i < count; i++) {
        text += words[Math.floor(random() * words.length)];
        text += separators[Math.floor(random() * separators.length)];
      }
      for (const token of tokens) {
        const expected =
          containsWholeWord(text, token) ||
          surfaceForms(token)
            .slice(1)
            .some((form) => containsWholeWord(text, form));
        if (expected) found++;
        expect(containsContentToken(text, token), JSON.stringify([text, token])).toBe(expected);
      }
    }
    expect(found).toBeGreaterThan(3000);
  });
});

describe("contentTokenIndexes", () => {
  it("gives the start of every whole word whose content form is the token, plurals included", () => {
    const text = foldForSearch("Stations: one station, two stations; no substation.");
    expect(contentTokenIndexes(text, "station")).toEqual([0, 14, 27]);
    expect(contentTokenIndexes(text, "bridge")).toEqual([]);
  });

  it("finds Han tokens as substrings, as containsContentToken does", () => {
    expect(contentTokenIndexes("澜汀大学成立于1952年，澜汀大学", "澜汀")).toEqual([0, 13]);
  });
});
