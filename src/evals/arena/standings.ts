import { BOOTSTRAP_DEFAULTS, bootstrapRatings, percentileInterval } from "./bootstrap.js";
import { fitBradleyTerry } from "./bradley-terry.js";
import { fitLengthRows, lengthControlledRatings, lengthRows } from "./length-control.js";
import {
  halfTieWins,
  LOSS,
  type PairOutcomes,
  type Tally,
  tallyOutcomes,
  TIE,
  WIN,
  winRate,
} from "./outcomes.js";

// The arena's numbers from per-question outcomes (issue 14 §2): the win/tie/loss matrix, win
// rates, Bradley-Terry ratings with bootstrap intervals, each pair's paired difference with its
// interval (which decides whether the set tells the pair apart) and the length-controlled fit.

export interface StandingsInput {
  names: readonly string[];
  pairs: readonly PairOutcomes[];
  /** Per contestant, per question: the answer's length in characters (NaN = no answer). */
  lengths: readonly Float64Array[];
  /** Per contestant, per question: its judge score (score-based comparisons only). */
  scores?: readonly Float64Array[];
  rounds?: number;
  seed?: number;
}

export interface ContestantStanding {
  name: string;
  rank: number;
  rating: number;
  ci: [number, number];
  win_rate: number | null;
  wins: number;
  ties: number;
  losses: number;
  length_controlled: { rating: number; ci: [number, number] };
  mean_length: number | null;
}

export interface PairStanding {
  a: string;
  b: string;
  wins: number;
  ties: number;
  losses: number;
  /** Questions neither side could be compared on (an error or missing answer). */
  missing: number;
  /**
   * What `mean_difference` averages per question: the judge's scores a - b (score-based judges),
   * or the outcome from a's side, a win 1, a tie 0, a loss -1 (the pairwise judge).
   */
  difference_of: "score" | "outcome";
  /** The mean paired difference over the questions both were compared on; null with none. */
  mean_difference: number | null;
  /** Its 95% paired bootstrap interval (over questions), as printed. */
  difference_ci: [number, number] | null;
  /**
   * The one rule: the pair is distinguishable on this set when `difference_ci`, as printed,
   * excludes 0. (Overlapping rating intervals decided it before, and could say "no" beside a
   * difference interval of [-0.173, -0.009]: two 95% intervals may overlap while the difference
   * between them is clear.)
   */
  distinguishable: boolean;
}

export interface Standings {
  contestants: ContestantStanding[];
  /** cells[i][j]: i's wins, ties and losses against j (names in input order); null on the diagonal. */
  matrix: { names: string[]; cells: (Tally | null)[][] };
  pairs: PairStanding[];
  not_distinguishable: [string, string][];
  length_control: {
    coefficient: number;
    ci: [number, number];
    comparisons: number;
    converged: boolean;
  };
  bradley_terry: { regularized: boolean; iterations: number };
  bootstrap: { rounds: number; seed: number };
}

/** Per question, a's side of a pair's outcome as a number: win 1, tie 0, loss -1, else NaN. */
export function outcomeDifferences(outcomes: Int8Array): Float64Array {
  return Float64Array.from(outcomes, (o) =>
    o === WIN ? 1 : o === TIE ? 0 : o === LOSS ? -1 : Number.NaN,
  );
}

/** Whether an interval, as printed, leaves out 0 (the pair's difference is not noise). */
export function excludesZero(ci: readonly [number, number] | null): boolean {
  return ci !== null && (ci[0] > 0 || ci[1] < 0);
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function mean(values: Float64Array): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    sum += v;
    n++;
  }
  return n === 0 ? null : sum / n;
}

export function computeStandings(input: StandingsInput): Standings {
  const { names, pairs, lengths, scores } = input;
  const rounds = input.rounds ?? BOOTSTRAP_DEFAULTS.rounds;
  const seed = input.seed ?? BOOTSTRAP_DEFAULTS.seed;
  if (rounds < BOOTSTRAP_DEFAULTS.minRounds) {
    throw new RangeError(
      `at least ${BOOTSTRAP_DEFAULTS.minRounds} bootstrap rounds (got ${rounds})`,
    );
  }
  const count = names.length;
  const questions = pairs[0]?.outcomes.length ?? 0;
  const tallies = pairs.map(({ a, b, outcomes }) => ({ a, b, tally: tallyOutcomes(outcomes) }));
  const fit = fitBradleyTerry(halfTieWins(count, tallies));
  const rows = lengthRows(count, pairs, lengths);
  const lengthFit = fitLengthRows(rows);
  const lengthRatings = lengthControlledRatings(lengthFit.theta, count);
  // Each pair's per-question difference: scores when the judge gives them, else the outcome.
  const paired = pairs.map(({ a, b, outcomes }) =>
    scores ? scores[a]!.map((x, q) => x - scores[b]![q]!) : outcomeDifferences(outcomes),
  );
  const draws = bootstrapRatings({
    count,
    questions,
    pairs,
    rounds,
    seed,
    length: { rows, theta: lengthFit.theta },
    differences: paired,
  });
  const cis = draws.ratings.map((r) => percentileInterval(r));
  const lengthCis = draws.lengthRatings!.map((r) => percentileInterval(r));
  const coefficientCi = percentileInterval(draws.lengthCoefficients!);
  const coefficient = lengthFit.theta[count - 1]!;

  const cells: (Tally | null)[][] = names.map((_, i) =>
    names.map((__, j) => (i === j ? null : { wins: 0, ties: 0, losses: 0 })),
  );
  for (const { a, b, tally } of tallies) {
    cells[a]![b] = tally;
    cells[b]![a] = { wins: tally.losses, ties: tally.ties, losses: tally.wins };
  }
  const totals = cells.map((row) =>
    row.reduce<Tally>(
      (sum, cell) =>
        cell
          ? {
              wins: sum.wins + cell.wins,
              ties: sum.ties + cell.ties,
              losses: sum.losses + cell.losses,
            }
          : sum,
      { wins: 0, ties: 0, losses: 0 },
    ),
  );
  const order = names.map((_, i) => i).sort((i, j) => fit.ratings[j]! - fit.ratings[i]!);
  const contestants = order.map((i, position): ContestantStanding => ({
    name: names[i]!,
    rank: position + 1,
    rating: round(fit.ratings[i]!),
    ci: [round(cis[i]![0]), round(cis[i]![1])],
    win_rate: winRate(totals[i]!) === null ? null : round(winRate(totals[i]!)!, 4),
    ...totals[i]!,
    length_controlled: {
      rating: round(lengthRatings[i]!),
      ci: [round(lengthCis[i]![0]), round(lengthCis[i]![1])],
    },
    mean_length: mean(lengths[i]!) === null ? null : round(mean(lengths[i]!)!),
  }));
  const pairStandings = tallies.map(({ a, b, tally }, p): PairStanding => {
    const difference = mean(paired[p]!);
    const ci = percentileInterval(draws.differences![p]!);
    const printed: [number, number] | null = Number.isNaN(ci[0])
      ? null
      : [round(ci[0], 4), round(ci[1], 4)];
    return {
      a: names[a]!,
      b: names[b]!,
      ...tally,
      missing: questions - tally.wins - tally.ties - tally.losses,
      difference_of: scores ? "score" : "outcome",
      mean_difference: difference === null ? null : round(difference, 4),
      difference_ci: printed,
      distinguishable: excludesZero(printed),
    };
  });
  return {
    contestants,
    matrix: { names: [...names], cells },
    pairs: pairStandings,
    not_distinguishable: pairStandings
      .filter((p) => !p.distinguishable)
      .map((p): [string, string] => [p.a, p.b]),
    length_control: {
      coefficient: round(coefficient, 4),
      ci: [round(coefficientCi[0], 4), round(coefficientCi[1], 4)],
      comparisons: rows.comparisons,
      converged: lengthFit.converged,
    },
    bradley_terry: { regularized: fit.regularized, iterations: fit.iterations },
    bootstrap: { rounds, seed },
  };
}
