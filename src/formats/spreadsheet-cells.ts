// CSV files ragjudge writes are opened in spreadsheets, and their cells hold text from bots, users
// and generated or imported questions. A spreadsheet runs a cell starting with `=`, `+`, `-` or
// `@` (and, per OWASP's CSV injection advice, tab or CR) as a formula (`=HYPERLINK(...)` sends
// data away when clicked), so every CSV export writes such a cell with a leading apostrophe,
// which spreadsheets read as "text", and every CSV import takes that apostrophe off again.

/** A formula's first character, after any apostrophes a cell already starts with. */
const FORMULA_START = /^'*[=+\-@\t\r]/;
/** What the exporter writes for such a cell: one more apostrophe in front. */
const MARKED_FORMULA = /^'+[=+\-@\t\r]/;

/**
 * The cell as a CSV export writes it: text a spreadsheet would run gets a leading `'`; numbers,
 * booleans and other text are left alone. A text that already starts with apostrophes before a
 * formula character gets one more, so `fromSpreadsheetSafe` gives back exactly what was written.
 */
export function spreadsheetSafe<T>(cell: T): T | string {
  return typeof cell === "string" && FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/**
 * The cell as a CSV import reads it: the apostrophe `spreadsheetSafe` added is taken off (one,
 * and only before a formula character, so `'quoted'` or `'tis` stay as they are). For every
 * text t, fromSpreadsheetSafe(spreadsheetSafe(t)) === t.
 */
export function fromSpreadsheetSafe(cell: string): string {
  return MARKED_FORMULA.test(cell) ? cell.slice(1) : cell;
}
