import { expect, it } from "vitest";
import { describeEachStore } from "../../test/support/stores.js";
import { reserveItemCost, setEvaluationCostLimit, settleItemCost } from "./evaluation-budget.js";
import { createEvaluation, getEvaluationForWorker, transitionEvaluation } from "./evaluations.js";
import { findOrCreateUser } from "./users.js";

const reason = (limitUsd: number) => `limit ${limitUsd} reached`;

describeEachStore("a run's cost budget", (use) => {
  /** A RUNNING run with a limit of $0.01 that has spent $0.008 on one item (the dearest). */
  async function runNearItsLimit() {
    const { db } = use();
    const user = await findOrCreateUser(db, "budget");
    const run = await createEvaluation(db, user.id, {
      user_id: user.id,
      name: "near its limit",
      bot_id: "builtin",
      judge_llm_model_id: "offline",
      config: { max_cost_usd: 0.01 },
      questions: [
        { question_id: "q", question_type: "FACTUAL", question_text: "q?", ground_truth: "" },
      ],
    });
    await transitionEvaluation(db, run.id, ["PENDING"], "RUNNING");
    await settleItemCost(db, run.id, 0, 0.008);
    return { db, user, id: run.id };
  }

  it("pauses a run whose next item could pass its limit, naming the limit", async () => {
    const { db, id } = await runNearItsLimit();
    expect(await reserveItemCost(db, id, reason)).toEqual({ admitted: false, outcome: "paused" });
    expect(await getEvaluationForWorker(db, id)).toMatchObject({
      status: "PAUSED",
      status_reason: "limit 0.01 reached",
    });
  });

  it("checks the limit the run holds now: cleared or raised at resume, it is not paused again", async () => {
    const { db, user, id } = await runNearItsLimit();
    await reserveItemCost(db, id, reason);
    // Resumed without a limit. An item that read the old limit of $0.01 asks after the resume.
    expect(await setEvaluationCostLimit(db, user.id, id, null)).toBe(true);
    await transitionEvaluation(db, id, ["PAUSED"], "RUNNING");
    expect(await reserveItemCost(db, id, reason)).toEqual({ admitted: true, reservedUsd: 0 });
    expect((await getEvaluationForWorker(db, id))?.status).toBe("RUNNING");
    // Paused by hand and resumed under a higher limit: the estimate (1.5 × $0.008) now fits.
    await transitionEvaluation(db, id, ["RUNNING"], "PAUSED");
    expect(await setEvaluationCostLimit(db, user.id, id, 0.05)).toBe(true);
    await transitionEvaluation(db, id, ["PAUSED"], "RUNNING");
    const raised = await reserveItemCost(db, id, reason);
    expect(raised.admitted && raised.reservedUsd).toBeCloseTo(0.012);
    await settleItemCost(db, id, 0.012, null);
    // And lowered: the lower limit is the one checked and named.
    await transitionEvaluation(db, id, ["RUNNING"], "PAUSED");
    expect(await setEvaluationCostLimit(db, user.id, id, 0.009)).toBe(true);
    await transitionEvaluation(db, id, ["PAUSED"], "RUNNING");
    expect(await reserveItemCost(db, id, reason)).toEqual({ admitted: false, outcome: "paused" });
    expect((await getEvaluationForWorker(db, id))?.status_reason).toBe("limit 0.009 reached");
  });
});
