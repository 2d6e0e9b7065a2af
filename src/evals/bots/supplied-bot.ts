// The "bot" of a run of precomputed answers (issue 14 §1): each item's answer was stored with its
// question at the run's start, so asking is reading it back.

import { SuppliedAnswerSchema } from "../answers/index.js";
import { type Bot, BotError } from "./types.js";

/** A bot that answers one item with the answer stored on its result row. */
export function suppliedAnswerBot(stored: unknown): Bot {
  return {
    describe: () => ({ kind: "answers", name: "answers" }),
    async ask() {
      const parsed = SuppliedAnswerSchema.safeParse(stored);
      if (!parsed.success) {
        throw new BotError("invalid_response", "no stored answer for this question");
      }
      return { ...parsed.data, trace: [], latency_ms: 0 };
    },
  };
}
