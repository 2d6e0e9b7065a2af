import { describe, expect, it } from "vitest";
import { feedbackOfEvent } from "./evaluation-events.js";

describe("feedbackOfEvent", () => {
  it("reads a thumb from the label, a score on [0, 1], and the explanation after the name", () => {
    expect(
      feedbackOfEvent({
        "gen_ai.evaluation.name": "user_feedback",
        "gen_ai.evaluation.score.label": "Thumbs_Up",
        "gen_ai.evaluation.score.value": 1,
        "gen_ai.evaluation.explanation": " Exactly right. ",
      }),
    ).toEqual({ thumb: "up", score: 1, comment: "user_feedback: Exactly right." });
    expect(feedbackOfEvent({ "gen_ai.evaluation.score.label": "incorrect" })).toEqual({
      thumb: "down",
    });
    expect(feedbackOfEvent({ "gen_ai.evaluation.score.value": "0.4" })).toEqual({ score: 0.4 });
  });
  it("keeps nothing from an event that says nothing it can store", () => {
    expect(feedbackOfEvent({ "gen_ai.evaluation.name": "stars" })).toBeUndefined();
    expect(
      feedbackOfEvent({
        "gen_ai.evaluation.score.value": 4,
        "gen_ai.evaluation.score.label": "4/5",
      }),
    ).toBeUndefined();
  });
  it("cuts an explanation to the 4,000 characters a comment holds", () => {
    const long = feedbackOfEvent({ "gen_ai.evaluation.explanation": "x".repeat(5_000) });
    expect(long?.comment).toHaveLength(4_000);
  });
});
