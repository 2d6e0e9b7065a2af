import { describe, expect, it } from "vitest";
import { spreadsheetSafe } from "./results-file.js";

describe("spreadsheetSafe", () => {
  it("defuses cells a spreadsheet would run as formulas, and leaves the rest alone", () => {
    expect(spreadsheetSafe('=HYPERLINK("http://x","y")')).toBe('\'=HYPERLINK("http://x","y")');
    expect(spreadsheetSafe("+1")).toBe("'+1");
    expect(spreadsheetSafe("-2")).toBe("'-2");
    expect(spreadsheetSafe("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(spreadsheetSafe("Line 1 opened in 2009.")).toBe("Line 1 opened in 2009.");
    expect(spreadsheetSafe(0.25)).toBe(0.25);
  });
});
