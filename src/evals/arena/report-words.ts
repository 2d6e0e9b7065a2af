import type { MessageLanguage } from "../../text/index.js";

// The words of the arena's table and Markdown reports: English by default, Chinese with
// `ragjudge arena --lang zh`. Figures, names, ids and the judge's own messages stay as they are.

const EN = {
  heading: 'Arena "{name}" ({id}) · {status} · judge {judge} · {questions} questions',
  ratingsTitle:
    "Ratings (Bradley-Terry, 1000 = average; 95% bootstrap CI over {questions} questions, {rounds} rounds, random seed {seed})",
  rank: "rank",
  contestant: "contestant",
  rating: "rating",
  ci: "95% CI",
  winRate: "win rate",
  wins: "W",
  ties: "T",
  losses: "L",
  lengthControlled: "length-controlled",
  meanLength: "mean length",
  scored: "scored",
  answered: "answered",
  notDistinguishable:
    "Not distinguishable on this set (the 95% interval of their paired difference contains 0): {pairs}",
  allDistinguishable:
    "Every pair is distinguishable on this set (no pair's 95% paired-difference interval contains 0).",
  lengthNote:
    "Length: coefficient {coefficient} {ci} log-odds for the longer answer at the largest length difference (over {n} comparisons)",
  favoursLonger: ": the judge favours longer answers; read the length-controlled ratings.",
  favoursShorter: ": the judge favours shorter answers.",
  noLengthPreference: ": no length preference detected.",
  regularized:
    "A contestant won or lost every comparison: one virtual tie per pair was added so the ratings stay finite.",
  pairsScoreTitle:
    "Pairs ({judge} judge scores; a tie within {tolerance}; mean paired difference with its bootstrap CI)",
  pairsPairwiseTitle:
    "Pairs (pairwise judge, both orders; a win only when both orders agree; net wins of a per question, win 1, tie 0, loss -1, with its bootstrap CI)",
  a: "a",
  b: "b",
  aWins: "a wins",
  tiesCount: "ties",
  bWins: "b wins",
  notCompared: "not compared",
  meanDifference: "mean a - b",
  netWins: "net wins of a",
  distinguishable: "distinguishable",
  yes: "yes",
  no: "no",
  matrixTitle: "Win matrix (row against column: wins-ties-losses)",
  radarTitle: "Rubric dimensions (accuracy, completeness, clarity; 1-10, means)",
  accuracy: "accuracy",
  completeness: "completeness",
  clarity: "clarity",
  pairwiseTitle: "Pairwise judge",
  judgeModel: "judge model",
  judgedBothWays: "pairs judged both ways",
  flips: "position flips",
  flipRate: "flip rate",
  judgeErrors: "{n} judge error(s), kept apart (not counted as ties)",
  costTitle: "Cost (USD; docs/cost.md)",
  who: "who",
  promptTokens: "prompt tokens",
  completionTokens: "completion tokens",
  cost: "cost",
  contestantCost: "{name} (its run: bot and judges)",
  pairwiseJudge: "pairwise judge",
} as const;

export type ArenaWord = keyof typeof EN;

const ZH: Record<ArenaWord, string> = {
  heading: "竞技场“{name}”（{id}）· {status} · 评判 {judge} · {questions} 个问题",
  ratingsTitle:
    "评分（Bradley-Terry，1000 = 平均；对 {questions} 个问题做 {rounds} 轮自助抽样的 95% 置信区间，随机种子 {seed}）",
  rank: "排名",
  contestant: "参赛者",
  rating: "评分",
  ci: "95% 置信区间",
  winRate: "胜率",
  wins: "胜",
  ties: "平",
  losses: "负",
  lengthControlled: "长度校正后",
  meanLength: "平均长度",
  scored: "已评分",
  answered: "已回答",
  notDistinguishable: "在该问题集上无法区分（其配对差的 95% 区间包含 0）：{pairs}",
  allDistinguishable: "在该问题集上每一对都可以区分（没有一对的配对差 95% 区间包含 0）。",
  lengthNote: "长度：在最大长度差处较长回答的对数几率系数 {coefficient} {ci}（共 {n} 次比较）",
  favoursLonger: "：评判偏好较长的回答；请看长度校正后的评分。",
  favoursShorter: "：评判偏好较短的回答。",
  noLengthPreference: "：未发现长度偏好。",
  regularized: "有参赛者赢下或输掉了每一次比较：每对加了一次虚拟平局，使评分保持有限。",
  pairsScoreTitle:
    "配对（{judge} 评判的得分；相差 {tolerance} 以内为平局；平均配对差及其自助置信区间）",
  pairsPairwiseTitle:
    "配对（成对评判，两种顺序；只有两种顺序一致才算胜；a 每题的净胜，胜 1、平 0、负 -1，及其自助置信区间）",
  a: "a",
  b: "b",
  aWins: "a 胜",
  tiesCount: "平局",
  bWins: "b 胜",
  notCompared: "未比较",
  meanDifference: "平均 a - b",
  netWins: "a 的净胜",
  distinguishable: "可区分",
  yes: "是",
  no: "否",
  matrixTitle: "胜负矩阵（行对列：胜-平-负）",
  radarTitle: "评分细则各维度（准确性、完整性、清晰度；1-10，平均值）",
  accuracy: "准确性",
  completeness: "完整性",
  clarity: "清晰度",
  pairwiseTitle: "成对评判",
  judgeModel: "评判模型",
  judgedBothWays: "两种顺序都评判的配对",
  flips: "位置翻转",
  flipRate: "翻转率",
  judgeErrors: "{n} 个评判错误，单独列出（不算平局）",
  costTitle: "费用（美元；docs/cost.md）",
  who: "对象",
  promptTokens: "提示词元",
  completionTokens: "生成词元",
  cost: "费用",
  contestantCost: "{name}（其评估：机器人和评判）",
  pairwiseJudge: "成对评判",
};

const WORDS: Record<MessageLanguage, Record<ArenaWord, string>> = { en: EN, zh: ZH };

/** A word of the arena report in `lang`, `{name}` filled from `values`. */
export function arenaWord(
  lang: MessageLanguage,
  word: ArenaWord,
  values: Record<string, string | number> = {},
): string {
  return WORDS[lang][word].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** Every word, for tests. */
export const ARENA_WORDS = Object.keys(EN) as ArenaWord[];
export const arenaTemplate = (lang: MessageLanguage, word: ArenaWord) => WORDS[lang][word];
