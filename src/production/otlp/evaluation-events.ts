// Feedback inside a trace (issue 24 §2): a span event `gen_ai.evaluation.result`, as the
// OpenTelemetry GenAI semantic conventions name it, becomes feedback on the trace's answer. Read:
// gen_ai.evaluation.score.label (a thumb, when it says one), gen_ai.evaluation.score.value (a
// score, when on [0, 1]), gen_ai.evaluation.explanation (the comment, after the evaluation's
// gen_ai.evaluation.name). Pure.

import type { OtlpSpan } from "./decode.js";

export const EVALUATION_EVENT = "gen_ai.evaluation.result";

export interface TraceFeedback {
  thumb?: "up" | "down";
  score?: number;
  comment?: string;
}

const UP = new Set([
  "up",
  "thumbs_up",
  "thumbsup",
  "positive",
  "good",
  "pass",
  "passed",
  "correct",
  "like",
  "👍",
]);
const DOWN = new Set([
  "down",
  "thumbs_down",
  "thumbsdown",
  "negative",
  "bad",
  "fail",
  "failed",
  "incorrect",
  "dislike",
  "👎",
]);

const MAX_COMMENT = 4_000;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** One event's feedback, or undefined when it says nothing ragjudge can keep. */
export function feedbackOfEvent(attributes: Record<string, unknown>): TraceFeedback | undefined {
  const label = text(attributes["gen_ai.evaluation.score.label"])?.toLowerCase();
  const value = attributes["gen_ai.evaluation.score.value"];
  const name = text(attributes["gen_ai.evaluation.name"]);
  const explanation = text(attributes["gen_ai.evaluation.explanation"]);
  const feedback: TraceFeedback = {};
  if (label && UP.has(label)) feedback.thumb = "up";
  else if (label && DOWN.has(label)) feedback.thumb = "down";
  const score = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  if (Number.isFinite(score) && score >= 0 && score <= 1) feedback.score = score;
  if (explanation) {
    feedback.comment = (name ? `${name}: ${explanation}` : explanation).slice(0, MAX_COMMENT);
  }
  return Object.keys(feedback).length > 0 ? feedback : undefined;
}

/** Every evaluation event's feedback in a trace, in span and event order. */
export function traceFeedback(spans: readonly OtlpSpan[]): TraceFeedback[] {
  return spans.flatMap((span) =>
    span.events.flatMap((event) => {
      if (event.name !== EVALUATION_EVENT) return [];
      const feedback = feedbackOfEvent(event.attributes);
      return feedback ? [feedback] : [];
    }),
  );
}
