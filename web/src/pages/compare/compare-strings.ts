// The compare page's strings added by issue 23 §1.3 (which run is the base, and when two runs'
// scores are not comparable), English and Chinese; merged into i18n/strings.ts.
export const compareEn = {
  "compare.swap": "Swap A and B",
  "compare.baseIsNewer":
    "The base (A) is the newer run, so the changes read backwards in time: swap them to see what changed since the older run.",
  "compare.notComparable":
    "These runs were not judged the same way, so their scores are not comparable:",
  "compare.why.question_set": "they ran on different question sets ({base} and {head})",
  "compare.why.judges": "different judges (A: {base}; B: {head})",
  "compare.why.scale": "different score scales (A: {base}; B: {head})",
  "compare.why.judge_model": "different judge models (A: {base}; B: {head})",
  "compare.why.judge_settings":
    "the same judges set up differently ({judges}: weights, pass thresholds, language or repeats)",
  "compare.noJudge": "none",
  "compare.unknownSet": "no set",
  "compare.scale.1-10": "1-10",
  "compare.scale.1-5": "1-5",
  "compare.scale.pass_fail": "pass/fail",
  "compare.scale.0-1": "0-1",
  "compare.judge.offline": "offline",
  "compare.judge.rubric": "rubric",
  "compare.judge.reference": "reference answer",
  "compare.judge.review": "review",
  "compare.judge.token_precision": "token precision",
  "compare.judge.contains_reference": "contains the reference",
  "compare.judge.claims": "claims",
  "compare.judge.claims_offline": "claims (offline)",
  "compare.radarShared": "Only the dimensions both runs have are drawn.",
  "compare.radarOnly": "Only in {run}: {dimensions}.",
} as const;

export const compareZh: Record<keyof typeof compareEn, string> = {
  "compare.swap": "交换 A 和 B",
  "compare.baseIsNewer":
    "基线 (A) 是较新的一次，变化方向与时间相反：交换后可看到相对较早那次的变化。",
  "compare.notComparable": "这两次评估的评判方式不同，分数不可直接比较：",
  "compare.why.question_set": "使用了不同的问题集（{base} 和 {head}）",
  "compare.why.judges": "评判不同（A：{base}；B：{head}）",
  "compare.why.scale": "评分尺度不同（A：{base}；B：{head}）",
  "compare.why.judge_model": "评判模型不同（A：{base}；B：{head}）",
  "compare.why.judge_settings": "同样的评判但设置不同（{judges}：权重、通过阈值、语言或重复次数）",
  "compare.noJudge": "无",
  "compare.unknownSet": "无问题集",
  "compare.scale.1-10": "1-10 分",
  "compare.scale.1-5": "1-5 分",
  "compare.scale.pass_fail": "通过/不通过",
  "compare.scale.0-1": "0-1 分",
  "compare.judge.offline": "离线",
  "compare.judge.rubric": "评分细则",
  "compare.judge.reference": "参考答案",
  "compare.judge.review": "审查",
  "compare.judge.token_precision": "词元精确率",
  "compare.judge.contains_reference": "包含参考答案",
  "compare.judge.claims": "断言",
  "compare.judge.claims_offline": "断言（离线）",
  "compare.radarShared": "雷达图只画两次评估都有的维度。",
  "compare.radarOnly": "仅 {run} 有：{dimensions}。",
};
