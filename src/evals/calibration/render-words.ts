import type { MessageLanguage } from "../../text/index.js";

// The words of `ragjudge calibrate`'s table: English by default, Chinese with `--lang zh`.
// Figures and names stay as they are; the verdict's conditions are worded from their figures.

const EN = {
  titleScores: 'Calibration of the {judge} judge on "{name}" ({id}), human scores on {scale}',
  titlePassFail: 'Calibration of the {judge} judge on "{name}" ({id}), pass/fail',
  counts: "judged {judged} · human scores {scores} · human pass/fail {pass}",
  skipped: " · skipped (judge errors) {n}",
  scores: "scores",
  judge: "judge",
  constantBaseline: "constant baseline (always {value})",
  within: "within ±{tolerance}",
  kappaQuadratic: "κ (quadratic)",
  alpha: "α (Krippendorff, ordinal)",
  passFailSource: "pass/fail: people's pass from {labels} pass/fail labels",
  passFailScores: " and {scores} scores ≥ {threshold}",
  passFail: "pass/fail",
  pass: "pass",
  fail: "fail",
  accuracy: "accuracy",
  tpr: "TPR (people pass, judge passes)",
  tnr: "TNR (people fail, judge fails)",
  passRate: "pass rate",
  estimate: "estimate",
  ci: "95% CI",
  from: "from",
  judgeOnly: "judge only",
  humanOnly: "human only",
  ppi: "prediction-powered (PPI++)",
  judgedWilson: "{n} judged (Wilson)",
  labelledWilson: "{n} labelled (Wilson)",
  ppiFrom: "{n} labelled + {N} judged, λ = {lambda} (CLT)",
  verdict: "Golden-set verdict: {verdict}",
  onScores: " (on scores)",
  onPassFail: " (on pass/fail)",
  disagreements: "Largest disagreements (review these first):",
  human: "human",
  diff: "diff",
  passJH: "pass j/h",
  question: "question",
  note: "note",
  reviewersTitle: "The judge against each reviewer (annotation queues):",
  reviewer: "reviewer",
  passFailKappa: "pass/fail κ",
  // The verdict's conditions: in English the verdict's own sentences are printed, so these are
  // read only in Chinese; the English ones say the same for the key test.
  condWithin: "share within ±{tolerance} is {value}, target {threshold}",
  condAccuracy: "pass/fail accuracy is {value}, target {threshold}",
  condKappa: "{what} is {value}, threshold {threshold}",
  condKappaScores: "quadratic-weighted κ",
  condKappaPassFail: "Cohen's κ on pass/fail",
  condBeats: "{what} {value} beats the constant baseline's {threshold} (always {constant})",
  condBeatsNot:
    "{what} {value} does not beat the constant baseline's {threshold} (always {constant})",
  condLabels: "no judged result has a human label on this judge's scale or pass/fail",
} as const;

export type CalibrationWord = keyof typeof EN;

const ZH: Record<CalibrationWord, string> = {
  titleScores: "{judge} 评判在“{name}”（{id}）上的校准，人工评分量表 {scale}",
  titlePassFail: "{judge} 评判在“{name}”（{id}）上的校准，通过/未通过",
  counts: "已评判 {judged} · 人工评分 {scores} · 人工通过/未通过 {pass}",
  skipped: " · 已跳过（评判错误）{n}",
  scores: "得分",
  judge: "评判",
  constantBaseline: "常数基线（总是 {value}）",
  within: "相差 ±{tolerance} 以内",
  kappaQuadratic: "κ（二次加权）",
  alpha: "α（Krippendorff，有序）",
  passFailSource: "通过/未通过：人工的通过来自 {labels} 个通过/未通过标注",
  passFailScores: "和 {scores} 个 ≥ {threshold} 的评分",
  passFail: "通过/未通过",
  pass: "通过",
  fail: "未通过",
  accuracy: "准确率",
  tpr: "真正率（人工通过，评判通过）",
  tnr: "真负率（人工未通过，评判未通过）",
  passRate: "通过率",
  estimate: "估计值",
  ci: "95% 置信区间",
  from: "依据",
  judgeOnly: "仅评判",
  humanOnly: "仅人工",
  ppi: "预测增强（PPI++）",
  judgedWilson: "{n} 个已评判（Wilson）",
  labelledWilson: "{n} 个已标注（Wilson）",
  ppiFrom: "{n} 个已标注 + {N} 个已评判，λ = {lambda}（中心极限定理）",
  verdict: "黄金集结论：{verdict}",
  onScores: "（依据得分）",
  onPassFail: "（依据通过/未通过）",
  disagreements: "分歧最大的结果（请先复核这些）：",
  human: "人工",
  diff: "差值",
  passJH: "通过 评判/人工",
  question: "问题",
  note: "备注",
  reviewersTitle: "评判与每位审阅者的对比（标注队列）：",
  reviewer: "审阅者",
  passFailKappa: "通过/未通过 κ",
  condWithin: "与人工评分相差 ±{tolerance} 以内的比例为 {value}，目标 {threshold}",
  condAccuracy: "通过/未通过的准确率为 {value}，目标 {threshold}",
  condKappa: "{what} 为 {value}，阈值 {threshold}",
  condKappaScores: "二次加权 κ",
  condKappaPassFail: "通过/未通过上的 Cohen κ",
  condBeats: "{what} {value} 优于常数基线的 {threshold}（总是 {constant}）",
  condBeatsNot: "{what} {value} 未优于常数基线的 {threshold}（总是 {constant}）",
  condLabels: "没有已评判结果带有该评判量表上的人工评分或通过/未通过标注",
};

const WORDS: Record<MessageLanguage, Record<CalibrationWord, string>> = { en: EN, zh: ZH };

/** A word of the calibration table in `lang`, `{name}` filled from `values`. */
export function calibrationWord(
  lang: MessageLanguage,
  word: CalibrationWord,
  values: Record<string, string | number> = {},
): string {
  return WORDS[lang][word].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** Every word, for tests. */
export const CALIBRATION_WORDS = Object.keys(EN) as CalibrationWord[];
export const calibrationTemplate = (lang: MessageLanguage, word: CalibrationWord) =>
  WORDS[lang][word];
