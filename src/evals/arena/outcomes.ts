// Per-question outcomes of one pair of contestants, from the first one's side. Kept as one byte
// per question so 10 pairs x 5,000 questions resample a thousand times in well under a second.

export const WIN = 1;
export const TIE = 0;
export const LOSS = -1;
/** Either side has no usable result on the question (an error, a missing answer): not counted. */
export const MISSING = 2;

export interface PairOutcomes {
  /** Index of the first contestant. */
  a: number;
  /** Index of the second contestant. */
  b: number;
  /** One of WIN, TIE, LOSS, MISSING per question, from a's side. */
  outcomes: Int8Array;
}

export interface Tally {
  wins: number;
  ties: number;
  losses: number;
}

/**
 * Score-based outcomes: a wins when its score is higher than b's by more than `tolerance`, loses
 * when lower by more, ties otherwise. NaN marks a missing score.
 */
export function scoreOutcomes(
  scoresA: Float64Array,
  scoresB: Float64Array,
  tolerance: number,
): Int8Array {
  const outcomes = new Int8Array(scoresA.length);
  for (let q = 0; q < scoresA.length; q++) {
    const a = scoresA[q] as number;
    const b = scoresB[q] as number;
    if (Number.isNaN(a) || Number.isNaN(b)) outcomes[q] = MISSING;
    else if (a - b > tolerance) outcomes[q] = WIN;
    else if (b - a > tolerance) outcomes[q] = LOSS;
    else outcomes[q] = TIE;
  }
  return outcomes;
}

/** Wins, ties and losses of a pair, each question counted `weights[q]` times (default once). */
export function tallyOutcomes(outcomes: Int8Array, weights?: Uint32Array): Tally {
  let wins = 0;
  let ties = 0;
  let losses = 0;
  for (let q = 0; q < outcomes.length; q++) {
    const w = weights ? (weights[q] as number) : 1;
    if (w === 0) continue;
    const o = outcomes[q];
    if (o === WIN) wins += w;
    else if (o === TIE) ties += w;
    else if (o === LOSS) losses += w;
  }
  return { wins, ties, losses };
}

/** A contestant's share of points, ties as half: (W + 0.5 T) / (W + L + T); null with no games. */
export function winRate(tally: Tally): number | null {
  const games = tally.wins + tally.ties + tally.losses;
  return games === 0 ? null : (tally.wins + 0.5 * tally.ties) / games;
}

/**
 * The K x K matrix of "wins" for Bradley-Terry, ties counted as half a win to each side:
 * w[i][j] = wins of i over j + ties / 2.
 */
export function halfTieWins(
  count: number,
  pairs: readonly { a: number; b: number; tally: Tally }[],
) {
  const wins = Array.from({ length: count }, () => new Float64Array(count));
  for (const { a, b, tally } of pairs) {
    (wins[a] as Float64Array)[b] = tally.wins + tally.ties / 2;
    (wins[b] as Float64Array)[a] = tally.losses + tally.ties / 2;
  }
  return wins;
}
