// The win matrix's heat map: each cell coloured by the row's points share against the column
// (a tie is half a point), as the HTML report draws it (src/evals/arena/html.ts).

export interface Tally {
  wins: number;
  ties: number;
  losses: number;
}

/** (W + T/2) / (W + T + L), or null when the two were never compared. */
export function pointsShare(cell: Tally): number | null {
  const games = cell.wins + cell.ties + cell.losses;
  return games === 0 ? null : (cell.wins + cell.ties / 2) / games;
}

/**
 * A diverging colour: red for 0 (lost everything), white for 0.5, blue for 1. Light enough at
 * either end that dark text on it keeps WCAG AA contrast.
 */
export function heatColor(share: number | null): string {
  if (share === null) return "transparent";
  const s = Math.min(1, Math.max(0, share));
  const toward = (from: number, to: number, t: number) => Math.round(from + (to - from) * t);
  if (s < 0.5) {
    const t = (0.5 - s) / 0.5;
    return `rgb(${toward(255, 244, t)} ${toward(255, 165, t)} ${toward(255, 160, t)})`;
  }
  const t = (s - 0.5) / 0.5;
  return `rgb(${toward(255, 150, t)} ${toward(255, 190, t)} ${toward(255, 240, t)})`;
}
