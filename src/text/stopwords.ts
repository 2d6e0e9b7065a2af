// Words that carry grammar rather than facts: a sentence is not "supported" because the evidence
// also says "the" or "的". Kept small on purpose; a longer list starts eating content words.

/** English function words, plus the fragments a letters-and-digits split leaves from contractions. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren as at be because been " +
    "before being below between both but by can cannot could couldn did didn do does doesn doing " +
    "don down during each either else ever few for from further had hadn has hasn have haven having " +
    "he her here hers herself him himself his how however i if in into is isn it its itself just " +
    "let me more most much must mustn my myself neither no nor not now of off on once only or other " +
    "ought our ours ourselves out over own per same shall shan she should shouldn so some such than " +
    "that the their theirs them themselves then there these they this those through thus to too " +
    "under until up upon us very via was wasn we were weren what when where whether which while who " +
    "whom whose why will with within without won would wouldn yes yet you your yours yourself " +
    "yourselves s t d ll m re ve"
  ).split(" "),
);

/**
 * Chinese particles, pronouns, conjunctions and measure words. Measure words (年, 个, 万...) are
 * here because numbers are judged by numeric_consistency; counting "年" as support would double-count.
 */
export const CHINESE_STOPWORDS: ReadonlySet<string> = new Set(
  (
    "的 地 得 了 着 过 是 在 和 与 及 或 也 都 就 而 但 并 且 又 还 即 则 乃 " +
    "这 那 此 其 之 该 每 各 某 本 " +
    "我 你 他 她 它 我们 你们 他们 她们 它们 自己 " +
    "为 于 以 被 把 对 从 到 由 向 往 给 跟 比 " +
    "有 没有 无 不 没 很 最 更 较 太 已 已经 曾 曾经 将 会 能 可 可以 要 应 " +
    "吗 呢 吧 啊 呀 哦 嘛 么 " +
    "所 所以 因为 因此 如果 虽然 但是 而且 或者 以及 并且 然后 于是 " +
    "年 月 日 号 个 位 名 座 条 家 种 次 万 亿 千 百 " +
    "中 上 下 内 外 里 等 之一 第 " +
    "一个 一位 一种 一些 一次 这个 那个 这些 那些 其中 目前 现在 当时 之后 以后 以前 之前 " +
    "一 二 两 三 四 五 六 七 八 九 十"
  ).split(" "),
);

const ALL_STOPWORDS: ReadonlySet<string> = new Set([...ENGLISH_STOPWORDS, ...CHINESE_STOPWORDS]);

export function isStopword(token: string): boolean {
  return ALL_STOPWORDS.has(token);
}
