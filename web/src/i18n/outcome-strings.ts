// Words for outcomes where nothing worked (issue 23 §1.4), English and Chinese; merged into
// strings.ts. A run whose every result is an error is shown as failed, with its errors counted.
export const outcomeEn = {
  "outcome.runFailed":
    "Every result is an error, so nothing was scored and the run is shown as failed: {errors}.",
  "outcome.botErrors": "{n} bot errors",
  "outcome.judgeErrors": "{n} judge errors",
} as const;

export const outcomeZh: Record<keyof typeof outcomeEn, string> = {
  "outcome.runFailed": "所有结果都是错误，没有任何评分，因此该评估显示为失败：{errors}。",
  "outcome.botErrors": "机器人错误 {n} 个",
  "outcome.judgeErrors": "评判错误 {n} 个",
};
