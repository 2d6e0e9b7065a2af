// Wide (CJK, fullwidth) characters take two terminal columns; padding by .length misaligns them.
const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += WIDE.test(char) ? 2 : 1;
  return width;
}

function truncate(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  let out = "";
  let width = 0;
  for (const char of text) {
    const w = WIDE.test(char) ? 2 : 1;
    if (width + w > max - 1) break;
    out += char;
    width += w;
  }
  return `${out}…`;
}

/** A plain-text table with a header rule; cells wider than `maxCell` columns are cut with "…". */
export function renderTable(
  headers: string[],
  rows: Array<Array<string | number>>,
  options: { maxCell?: number; alignRight?: number[] } = {},
): string {
  const maxCell = options.maxCell ?? 48;
  const cells = [headers, ...rows.map((row) => row.map(String))].map((row) =>
    row.map((cell) => truncate(cell.replace(/\s+/g, " "), maxCell)),
  );
  const widths = headers.map((_, col) =>
    Math.max(...cells.map((row) => displayWidth(row[col] ?? ""))),
  );
  const pad = (cell: string, col: number) => {
    const gap = " ".repeat((widths[col] ?? 0) - displayWidth(cell));
    return options.alignRight?.includes(col) ? gap + cell : cell + gap;
  };
  const lines = cells.map((row) => row.map(pad).join("  ").trimEnd());
  lines.splice(1, 0, widths.map((w) => "-".repeat(w)).join("  "));
  return lines.join("\n");
}
