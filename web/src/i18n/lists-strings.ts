// Words for the lists and forms of issue 23 §3 and §5 (the run list's bots and arena groups,
// question sets' delete and export, judges an unconfigured LLM disables, the generation preview),
// English and Chinese; merged into strings.ts.
export const listsEn = {
  "list.bot.builtinModel": "built-in, {model}",
  "list.bot.builtinExtractive": "built-in, extractive",
  "list.bot.answers": "answers file",
  "detail.bot": "Bot",
  "list.arenaGroup": "Runs made for the arena",
  "list.arenaContestant": "contestant “{name}” of an arena",
  "qs.actions": "Actions",
  "qs.exportAs": "{format}",
  "qs.exportNamed": "Download {name} as {format}",
  "qs.deleteNamed": "Delete the question set {name}",
  "qs.confirmDelete":
    "Delete the question set “{name}”? Runs made on it keep their own copy of its questions.",
  "new.needsLlmShort": "(needs an LLM)",
  "new.needsLlm":
    "The review, rubric and reference judges ask a language model, and this server has none: set the judge model (RAGJUDGE_JUDGE_MODEL, or llm.judge in ragjudge.config.json) and restart it. The other judges need none.",
  "gen.previewType": "Type",
  "arena.needsLlm":
    "The rubric, reference and pairwise judges ask a language model, and this server has none: set the judge model (RAGJUDGE_JUDGE_MODEL, or llm.judge in ragjudge.config.json) and restart it. The offline judge needs none.",
} as const;

export const listsZh: Record<keyof typeof listsEn, string> = {
  "list.bot.builtinModel": "内置，{model}",
  "list.bot.builtinExtractive": "内置，抽取式",
  "list.bot.answers": "答案文件",
  "detail.bot": "机器人",
  "list.arenaGroup": "为竞技场创建的评估",
  "list.arenaContestant": "竞技场参赛者“{name}”",
  "new.needsLlmShort": "（需要大模型）",
  "new.needsLlm":
    "审查、评分细则和参考答案评委需要调用大语言模型，而此服务器没有配置：请设置评委模型（RAGJUDGE_JUDGE_MODEL，或 ragjudge.config.json 中的 llm.judge）后重启。其他评委不需要。",
  "gen.previewType": "类型",
  "arena.needsLlm":
    "评分细则、参考答案和成对评委需要调用大语言模型，而此服务器没有配置：请设置评委模型（RAGJUDGE_JUDGE_MODEL，或 ragjudge.config.json 中的 llm.judge）后重启。离线评委不需要。",
  "qs.actions": "操作",
  "qs.exportAs": "{format}",
  "qs.exportNamed": "下载 {name}（{format}）",
  "qs.deleteNamed": "删除问题集 {name}",
  "qs.confirmDelete": "删除问题集“{name}”？在它上面运行过的评估保留各自的问题副本。",
};
