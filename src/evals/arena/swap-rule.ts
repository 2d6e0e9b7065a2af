import { LOSS, TIE, WIN } from "./outcomes.js";

/** A pairwise judge's verdict on one ordering: the answer shown first (A), second (B), or a tie. */
export type PairVerdict = "A" | "B" | "tie";

export interface SwappedOutcome {
  /** From the first contestant's side: WIN, TIE or LOSS. */
  outcome: typeof WIN | typeof TIE | typeof LOSS;
  /** The two orders preferred different contestants (or one preferred and one tied). */
  flipped: boolean;
}

/**
 * MT-Bench's rule for a pair judged twice with positions swapped: `first` saw contestant x as A,
 * `second` saw x as B. A win counts only when both orders prefer the same contestant; any
 * disagreement is a tie, and a flip.
 */
export function combineSwapped(first: PairVerdict, second: PairVerdict): SwappedOutcome {
  const preferredFirst = first === "A" ? WIN : first === "B" ? LOSS : TIE;
  const preferredSecond = second === "B" ? WIN : second === "A" ? LOSS : TIE;
  if (preferredFirst === preferredSecond) return { outcome: preferredFirst, flipped: false };
  return { outcome: TIE, flipped: true };
}
