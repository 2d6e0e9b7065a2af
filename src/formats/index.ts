export { describeIssues, type FieldIssue, fieldIssues } from "./issues.js";
export { type JsonlLine, parseJsonl, readLines } from "./jsonl.js";
export { displayWidth, renderTable } from "./table.js";
export { fromSpreadsheetSafe, spreadsheetSafe } from "./spreadsheet-cells.js";
