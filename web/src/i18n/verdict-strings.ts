// Words for a result's verdict (issue 23 §2), English and Chinese; merged into strings.ts. The
// rule they state is the one src/evals/runs/run-item.ts applies, and docs/judges.md words it too.
// A kind of failed model call reads as in every other failure summary (text/user-messages.ts).
import { failureKindWords } from "../../../src/text/user-messages";

export const verdictEn = {
  "verdict.passed": "Passed: every judge passed this answer and the gate did not fail it.",
  "verdict.failedJudges": "Failed: {judges} failed this answer.",
  "verdict.failedGate": "Failed: the gate failed this answer.",
  "verdict.failedBoth": "Failed: {judges} failed this answer, and so did the gate.",
  "verdict.notScored": "Not scored: {reason}.",
  "verdict.rule":
    "A result passes when every judge passes it and the gate does not say fail. Its score for comparing runs, {score} on a 0–1 scale, is the mean of the judges' scores, each rescaled to 0–1.",
  "verdict.gateMeaning.pass":
    "Gate pass: every claim is backed by the passages it cites. The gate does not check that the answer is right or on topic; the judges do.",
  "verdict.gateMeaning.partial":
    "Gate partial: some claims are not backed by the passages they cite, so the answer is shown with a warning.",
  "verdict.gateMeaning.fail":
    "Gate fail: the answer's evidence does not hold, so it is refused whatever the judges say.",
  "verdict.gateMeaning.skipped": "Gate skipped: there was no evidence to check the answer against.",
  "verdict.judgeName.review": "the review judge",
  "verdict.judgeName.rubric": "the rubric judge",
  "verdict.judgeName.reference": "the reference judge",
  "verdict.judgeName.offline": "the offline judge",
  "verdict.judgeName.claims": "the claims judge",
  "verdict.judgeName.claims_offline": "the offline claims judge",
  "verdict.ownScale": "{raw} / {max}",
  "verdict.scaleNote": "on its own scale",
  "card.compareScore": "Score {score} (0–1, for comparing runs)",
  "card.judgeFailedGatePassed":
    "A judge failed it; the gate checks only that its claims are backed by the passages it cites.",
  "card.citationTitle": "Passage {n}: {title}",
  "judgeError.heading": "Judges that could not judge",
  "judgeError.group": "{count} × {judges}: {what}.",
  "judgeError.kind.unusable_reply": failureKindWords("unusable_reply", "en"),
  "judgeError.kind.http": failureKindWords("http", "en"),
  "judgeError.kind.timeout": failureKindWords("timeout", "en"),
  "judgeError.kind.connection": failureKindWords("connection", "en"),
  "judgeError.kind.malformed_response": failureKindWords("malformed_response", "en"),
  "judgeError.kind.not_configured": failureKindWords("not_configured", "en"),
  "judgeError.kind.other": failureKindWords("other", "en"),
  "judgeError.details": "Details",
  "judgeError.noScore": "An error has no score: this result is not counted in the run's averages.",
} as const;

export const verdictZh: Record<keyof typeof verdictEn, string> = {
  "verdict.passed": "通过：所有评判都判定该回答通过，门控也没有判为不通过。",
  "verdict.failedJudges": "未通过：{judges}判定该回答不通过。",
  "verdict.failedGate": "未通过：门控判定该回答不通过。",
  "verdict.failedBoth": "未通过：{judges}判定该回答不通过，门控也是。",
  "verdict.notScored": "未评分：{reason}。",
  "verdict.rule":
    "当所有评判都判定通过、且门控没有判为不通过时，结果才算通过。用于比较评估的得分为 {score}（0–1 标度），是各评判得分换算到 0–1 后的平均值。",
  "verdict.gateMeaning.pass":
    "门控通过：每个论断都有所引段落的依据。门控不检查回答是否正确或切题，这由评判负责。",
  "verdict.gateMeaning.partial":
    "门控部分通过：有些论断在所引段落中找不到依据，因此回答带警告显示。",
  "verdict.gateMeaning.fail": "门控未通过：回答的证据不成立，无论评判如何都会被拒绝。",
  "verdict.gateMeaning.skipped": "门控已跳过：没有可用于核对回答的证据。",
  "verdict.judgeName.review": "审核评判",
  "verdict.judgeName.rubric": "评分细则评判",
  "verdict.judgeName.reference": "参考答案评判",
  "verdict.judgeName.offline": "离线评判",
  "verdict.judgeName.claims": "断言评判",
  "verdict.judgeName.claims_offline": "离线断言评判",
  "verdict.ownScale": "{raw} / {max}",
  "verdict.scaleNote": "按其自身标度",
  "card.compareScore": "得分 {score}（0–1，用于比较评估）",
  "card.judgeFailedGatePassed": "评判判定未通过；门控只检查论断是否有所引段落的依据。",
  "card.citationTitle": "段落 {n}：{title}",
  "judgeError.heading": "未能完成评判的评判",
  "judgeError.group": "{count} × {judges}：{what}。",
  "judgeError.kind.unusable_reply": failureKindWords("unusable_reply", "zh"),
  "judgeError.kind.http": failureKindWords("http", "zh"),
  "judgeError.kind.timeout": failureKindWords("timeout", "zh"),
  "judgeError.kind.connection": failureKindWords("connection", "zh"),
  "judgeError.kind.malformed_response": failureKindWords("malformed_response", "zh"),
  "judgeError.kind.not_configured": failureKindWords("not_configured", "zh"),
  "judgeError.kind.other": failureKindWords("other", "zh"),
  "judgeError.details": "详情",
  "judgeError.noScore": "出错的评判没有得分：该结果不计入评估的平均值。",
};
