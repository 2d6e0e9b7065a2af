import { describe, expect, it } from "vitest";
import { attachNumbers } from "./number-attachment.js";

const TRANSPORT =
  "The Jade River Bridge, opened in 1962, was the first fixed crossing of the estuary. It is 1,340 metres long and carries six traffic lanes. A second crossing, the Saltgate Tunnel, opened in 1997 and carries about 61,000 vehicles a day.";
const HISTORY =
  "After a typhoon flooded the lower town in 1931, the city spent seven years building the Tidewall, a 7.4 km sea wall completed in 1938.";
const FIRE =
  "The Great Fire burned for two days and destroyed 412 buildings. The Brick Ordinance of 1870 banned new timber buildings within 500 metres of the waterfront.";
const FLOOD = "沿江的三座人行桥梁被洪水冲毁，地铁1号线有5个地下车站进水，停运整整9天。";
const METRO =
  "The Lanting Metro opened its Line 1 on 18 September 2009. Line 2 followed in 2015 with 14 stations over 16.8 km.";

const verdicts = (answer: string, context: string) =>
  attachNumbers(answer, [context]).map((number) => [number.raw, number.verdict]);

describe("attachNumbers", () => {
  it("attaches figures the contexts state beside the same words and units", () => {
    expect(verdicts("The Jade River Bridge opened in 1962.", TRANSPORT)).toEqual([
      ["1962", "attached"],
    ]);
    expect(verdicts("The Saltgate Tunnel carries about 61,000 vehicles a day.", TRANSPORT)).toEqual(
      [["61,000", "attached"]],
    );
    // "completed" is nearest 1938; "typhoon" is nearest 1931, but one attaching word is enough.
    expect(
      verdicts(
        "The Tidewall was completed in 1938 after a typhoon flooded the lower town in 1931.",
        HISTORY,
      ),
    ).toEqual([
      ["1938", "attached"],
      ["1931", "attached"],
    ]);
  });

  it("finds a year whose nearest word belongs to another year", () => {
    // In the context "completed" stands beside 1938; 1931 is the typhoon's year.
    const [tidewall] = attachNumbers("The Tidewall was completed in 1931.", [HISTORY]);
    expect(tidewall).toEqual({
      raw: "1931",
      verdict: "swapped",
      reason: '"tidewall" goes with 1938',
    });
  });

  it("trusts a name beside a year over a verb the contexts use for several things", () => {
    // "opened" stands beside 1997 too (the tunnel), but the bridge's year is 1962.
    expect(verdicts("The Jade River Bridge opened in 1997.", TRANSPORT)).toEqual([
      ["1997", "swapped"],
    ]);
  });

  it("finds an amount whose unit the contexts give to another amount", () => {
    const [figure] = attachNumbers("The ordinance banned timber within 412 metres.", [FIRE]);
    expect(figure).toEqual({ raw: "412", verdict: "swapped", reason: '"metre" goes with 500' });
    // Chinese: 9 is the days, 5 the stations; the answer swaps them.
    expect(verdicts("地铁1号线有9个地下车站进水，停运5天。", FLOOD)).toEqual([
      ["1", "attached"],
      ["9", "swapped"],
      ["5", "swapped"],
    ]);
    expect(verdicts("地铁1号线有5个地下车站进水，停运9天。", FLOOD)).toEqual([
      ["1", "attached"],
      ["5", "attached"],
      ["9", "attached"],
    ]);
  });

  it("reads a label as part of the words, not as an amount", () => {
    // "Line 2" is a name: 2015 is read beside "line", which the context puts beside 2015.
    expect(verdicts("Line 2 opened in 2015.", METRO)).toEqual([
      ["2", "attached"],
      ["2015", "attached"],
    ]);
  });

  it("says unstated for a figure the contexts never give", () => {
    expect(verdicts("The bridge cost 40 million yuan.", TRANSPORT)).toEqual([
      ["40 million", "unstated"],
    ]);
    expect(attachNumbers("No figures here.", [TRANSPORT])).toEqual([]);
  });
});
