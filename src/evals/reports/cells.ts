// How numbers and verdicts read in the human formats (table, markdown), one place for both.

export function scoreCell(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined ? "-" : value.toFixed(digits);
}

export function percentCell(value: number | null | undefined): string {
  return value === null || value === undefined ? "-" : `${(100 * value).toFixed(1)}%`;
}

export function passedCell(passed: boolean | null): string {
  return passed === null ? "-" : passed ? "yes" : "no";
}

export function millisecondsCell(value: number | null | undefined): string {
  if (value === null || value === undefined) return "-";
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

/** One line of at most `max` characters (whitespace collapsed), cut with "…". */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
