import { describe, expect, it } from "vitest";
import { anchoredGroundedness, anchorNumbers } from "./anchoring.js";

const TRANSPORT =
  "The Jade River Bridge, opened in 1962, was the first fixed crossing of the estuary. It is 1,340 metres long and carries six traffic lanes. A second crossing, the Saltgate Tunnel, opened in 1997 and carries about 61,000 vehicles a day.";
const METRO =
  "The Lanting Metro opened its Line 1 on 18 September 2009. Line 1 runs 22.6 km from Gull Point to Eastfield with 19 stations, most of them underground. Line 2 followed in 2015 with 14 stations over 16.8 km, crossing Line 1 at Old Quay interchange.";

const anchoring = (answer: string, context: string) =>
  anchorNumbers(answer, [context]).map((number) => [
    number.raw,
    Number(number.anchoring.toFixed(2)),
  ]);

describe("anchorNumbers", () => {
  it("anchors a figure the contexts state beside the same words", () => {
    expect(anchoring("The Jade River Bridge opened in 1962.", TRANSPORT)).toEqual([["1962", 1]]);
    expect(anchoring("Line 2 opened in 2015 with 14 stations.", METRO)).toEqual([
      ["2", 1],
      ["2015", 1],
      ["14", 1],
    ]);
  });

  it("scores a figure lower where the contexts state it about something else", () => {
    // 1997 is the tunnel's year: beside it stand "opened" and "carries", not the bridge.
    const [[, year]] = anchoring("The Jade River Bridge opened in 1997.", TRANSPORT) as [
      [string, number],
    ];
    expect(year).toBeLessThan(0.5);
    // 19 is Line 1's count of stations, and stands beside "Line 1", not "Line 2" or 2015.
    const swapped = anchoring("Line 2 opened in 2015 and has 19 stations.", METRO);
    expect(swapped.find(([raw]) => raw === "19")?.[1]).toBeLessThan(0.75);
  });

  it("gives 0 to a figure the contexts never state", () => {
    expect(anchoring("The bridge cost 40 million yuan.", TRANSPORT)).toEqual([["40 million", 0]]);
  });

  it("reads Chinese with a narrower window", () => {
    const context = "澜汀大学成立于1952年，前身是1923年创办的澜汀商船学校。学校最初只有三个系。";
    expect(anchoring("澜汀大学成立于1952年。", context)).toEqual([["1952年", 1]]);
  });
});

describe("anchoredGroundedness", () => {
  it("weighs each number as NUMBER_WEIGHT words, by its anchoring", () => {
    // 4 of 5 tokens supported, one number anchored 0.5 at weight 2: (4 + 1) / (5 + 2).
    expect(anchoredGroundedness(5, 4, [{ raw: "19", value: "19", anchoring: 0.5 }], 2)).toBeCloseTo(
      5 / 7,
      12,
    );
    expect(anchoredGroundedness(0, 0, [], 2)).toBeNull();
  });
});
