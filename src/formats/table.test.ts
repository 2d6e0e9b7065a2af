import { expect, it } from "vitest";
import { displayWidth, renderTable } from "./table.js";

it("aligns columns by display width, counting CJK characters as two", () => {
  expect(displayWidth("公国")).toBe(4);
  const table = renderTable(
    ["id", "verdict"],
    [
      ["公国", "pass"],
      ["abcde", "fail"],
    ],
  );
  expect(table.split("\n")).toEqual([
    "id     verdict",
    "-----  -------",
    "公国   pass",
    "abcde  fail",
  ]);
});

it("cuts long cells with an ellipsis and right-aligns numbers on request", () => {
  const table = renderTable(
    ["text", "n"],
    [
      ["a".repeat(10), 5],
      ["b", 123],
    ],
    {
      maxCell: 6,
      alignRight: [1],
    },
  );
  expect(table.split("\n")).toEqual(["text      n", "------  ---", "aaaaa…    5", "b       123"]);
});
