import { describe, expect, it } from "vitest";
import {
  blankCitationMarkers,
  findCitationMarkers,
  findMarkersByPattern,
  stripCitationMarkers,
} from "./markers.js";
import { seededRandom } from "../../test/support/seeded-random.js";

describe("findCitationMarkers", () => {
  it("finds numeric, n-prefixed, listed, adjacent and full-width markers", () => {
    const text = "A [1]. B [n2]. C [n1, n3]. D [1][2]. E 【4】 F ［５］ G [doc-slug#2]";
    expect(findCitationMarkers(text).map((m) => m.refs)).toEqual([
      ["1"],
      ["n2"],
      ["n1", "n3"],
      ["1"],
      ["2"],
      ["4"],
      ["５"],
      ["doc-slug#2"],
    ]);
  });

  it("ignores brackets that are not citations", () => {
    expect(findCitationMarkers("[TODO] [sic] [see above] [link](http://x.io/1) [a b 1]")).toEqual(
      [],
    );
  });

  it("records positions", () => {
    const [marker] = findCitationMarkers("Fact [12].");
    expect(marker).toMatchObject({ start: 5, end: 9, raw: "[12]" });
  });
});

describe("strip and blank", () => {
  it("strips markers with the spaces before them", () => {
    expect(stripCitationMarkers("Built in 1869 [2]. Rebuilt [3][4].")).toBe(
      "Built in 1869. Rebuilt.",
    );
  });

  it("blanks markers to spaces of the same length", () => {
    const text = "Value 5 [12] here";
    expect(blankCitationMarkers(text)).toBe("Value 5      here");
    expect(blankCitationMarkers(text)).toHaveLength(text.length);
  });

  it("strips with spans found in a larger text", () => {
    const answer = "One [1]. Two [2].";
    const spans = findCitationMarkers(answer);
    expect(stripCitationMarkers(answer.slice(9), spans.slice(1), 9)).toBe("Two.");
  });
});

describe("findCitationMarkers, randomized", () => {
  it("reads ASCII text as the marker pattern does", () => {
    // Seeded, so a failure reproduces.
    const random = seededRandom(17);
    const pieces = [
      "[",
      "]",
      "[1]",
      "[n2]",
      "[1, 2]",
      "[doc#3]",
      "[sic]",
      "(",
      ")",
      "\n",
      " ",
      "1",
      "a",
      ",",
      "[x](http://a.b/1)",
      "TODO",
      "-",
      "x".repeat(150),
      "12345, ".repeat(20),
      // Inside 300 characters long, and 302: the longest marker, and one too long.
      `[${"1, ".repeat(99)}123]`,
      `[${"1, ".repeat(100)}12]`,
    ];
    let markers = 0;
    for (let n = 0; n < 4000; n++) {
      let text = "";
      for (let i = 0, count = Math.floor(random() * 14); i < count; i++) {
        text += pieces[Math.floor(random() * pieces.length)];
      }
      const found = findCitationMarkers(text);
      markers += found.length;
      expect(found, JSON.stringify(text)).toEqual(findMarkersByPattern(text));
    }
    expect(markers).toBeGreaterThan(2000);
  });
});
