import { describe, expect, it } from "vitest";
import { fromSpreadsheetSafe } from "./spreadsheet-cells";

describe("fromSpreadsheetSafe", () => {
  it("takes off only the apostrophe ragjudge's CSV exports add before a formula character", () => {
    expect(fromSpreadsheetSafe("'=SUM(A1:A2)")).toBe("=SUM(A1:A2)");
    expect(fromSpreadsheetSafe("'+1")).toBe("+1");
    expect(fromSpreadsheetSafe("'-2")).toBe("-2");
    expect(fromSpreadsheetSafe("'@x")).toBe("@x");
    expect(fromSpreadsheetSafe("'\t=1")).toBe("\t=1");
    expect(fromSpreadsheetSafe("''=x")).toBe("'=x");
    expect(fromSpreadsheetSafe("'tis")).toBe("'tis");
    expect(fromSpreadsheetSafe("'quoted'")).toBe("'quoted'");
    expect(fromSpreadsheetSafe("=raw")).toBe("=raw");
  });
});
