/**
 * A CSV cell as the server's imports read it (src/formats/spreadsheet-cells.ts): ragjudge's CSV
 * exports write a formula-like cell (`=`, `+`, `-`, `@`, tab, CR) with one leading `'` so a
 * spreadsheet does not run it; that apostrophe, and only it, comes off again. The web app parses
 * uploads itself, so it applies the same rule to what it sends.
 */
export function fromSpreadsheetSafe(cell: string): string {
  return /^'+[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}
