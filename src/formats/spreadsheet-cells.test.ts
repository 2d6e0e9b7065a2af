import { describe, expect, it } from "vitest";
import { fromSpreadsheetSafe, spreadsheetSafe } from "./spreadsheet-cells.js";

describe("spreadsheetSafe", () => {
  it("defuses cells a spreadsheet would run as formulas, and leaves the rest alone", () => {
    expect(spreadsheetSafe('=HYPERLINK("http://x","y")')).toBe('\'=HYPERLINK("http://x","y")');
    expect(spreadsheetSafe("+1")).toBe("'+1");
    expect(spreadsheetSafe("-2")).toBe("'-2");
    expect(spreadsheetSafe("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(spreadsheetSafe("\t=1+1")).toBe("'\t=1+1");
    expect(spreadsheetSafe("\r=1+1")).toBe("'\r=1+1");
    expect(spreadsheetSafe("Line 1 opened in 2009.")).toBe("Line 1 opened in 2009.");
    expect(spreadsheetSafe("'tis the season")).toBe("'tis the season");
    expect(spreadsheetSafe(0.25)).toBe(0.25);
    expect(spreadsheetSafe(-3)).toBe(-3);
    expect(spreadsheetSafe(true)).toBe(true);
  });
});

describe("fromSpreadsheetSafe", () => {
  it("takes off only the apostrophe spreadsheetSafe adds", () => {
    expect(fromSpreadsheetSafe("'=SUM(A1:A2)")).toBe("=SUM(A1:A2)");
    expect(fromSpreadsheetSafe("'-2")).toBe("-2");
    expect(fromSpreadsheetSafe("'quoted'")).toBe("'quoted'");
    expect(fromSpreadsheetSafe("'tis")).toBe("'tis");
    expect(fromSpreadsheetSafe("=SUM(A1)")).toBe("=SUM(A1)");
    expect(fromSpreadsheetSafe("plain")).toBe("plain");
  });

  it("reads the cases the web app's answers and question files meet (it imports this file)", () => {
    expect(fromSpreadsheetSafe("'+1")).toBe("+1");
    expect(fromSpreadsheetSafe("'@x")).toBe("@x");
    expect(fromSpreadsheetSafe("'\t=1")).toBe("\t=1");
    expect(fromSpreadsheetSafe("''=x")).toBe("'=x");
    expect(fromSpreadsheetSafe("=raw")).toBe("=raw");
  });

  it("undoes spreadsheetSafe for every text, apostrophes already in front included", () => {
    const texts = [
      "=1+1",
      "'=1+1",
      "''=1+1",
      "+44 20",
      "-",
      "@",
      "'",
      "''",
      "'@x",
      "\t",
      "\r\n",
      "'\t",
      "",
      "x=1",
      " =1",
      "'plain",
      "新问题=?",
    ];
    for (const text of texts) expect(fromSpreadsheetSafe(spreadsheetSafe(text)), text).toBe(text);
  });
});
