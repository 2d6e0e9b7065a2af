// Words for the lists and forms of issue 23 §3 and §5 (the run list's bots and arena groups,
// question sets' delete and export, judges an unconfigured LLM disables, the generation preview),
// English and Chinese; merged into strings.ts.
export const listsEn = {
  "list.bot.builtinModel": "built-in, {model}",
  "list.bot.builtinExtractive": "built-in, extractive",
  "list.bot.answers": "answers file",
  "list.arenaGroup": "Runs made for the arena",
  "list.arenaContestant": "contestant “{name}” of an arena",
} as const;

export const listsZh: Record<keyof typeof listsEn, string> = {
  "list.bot.builtinModel": "内置，{model}",
  "list.bot.builtinExtractive": "内置，抽取式",
  "list.bot.answers": "答案文件",
  "list.arenaGroup": "为竞技场创建的评估",
  "list.arenaContestant": "竞技场参赛者“{name}”",
};
