// Sentences the server writes for a person (chart notes, calibration warnings, why an arena or a
// question generation failed) as codes with parameters, worded here in English and Chinese. The
// API sends `{ code, params, message }` (message: the English words, for API users); the web app
// and `--lang zh` word the code in the reader's language. One catalogue, so they cannot disagree.

export type MessageLanguage = "en" | "zh";

/** Model calls that failed the same way, counted (llm/failure-kinds.ts groups them). */
export interface FailureGroupParam {
  kind: string;
  count: number;
  /** The first message of the kind, as an example: the provider's own words, not translated. */
  example: string;
}

export type MessageParam = string | number | readonly FailureGroupParam[];
export type MessageParams = Readonly<Record<string, MessageParam>>;

/** A sentence for a person, as a code with what fills it; `message` is the English words. */
export interface CodedMessage {
  code: string;
  params: MessageParams;
  message: string;
}

/** Why a model call failed, by kind (llm/failure-kinds.ts FAILURE_KINDS). */
const FAILURE_KIND_WORDS: Record<MessageLanguage, Record<string, string>> = {
  en: {
    unusable_reply: "the model's reply was unusable (not JSON, or not the expected shape)",
    http: "the model's server answered with an error",
    timeout: "the model did not answer in time",
    connection: "the model's server could not be reached",
    malformed_response: "the model's server sent a response that is not an OpenAI answer",
    not_configured: "the model is not configured",
    other: "another error",
  },
  zh: {
    unusable_reply: "模型的回复无法使用（不是 JSON，或结构不符）",
    http: "模型服务器返回了错误",
    timeout: "模型没有按时回答",
    connection: "无法连接到模型服务器",
    malformed_response: "模型服务器的响应不是 OpenAI 格式的回答",
    not_configured: "模型未配置",
    other: "其他错误",
  },
};

/** The words of one kind of failed model call. */
export function failureKindWords(kind: string, lang: MessageLanguage): string {
  return FAILURE_KIND_WORDS[lang][kind] ?? FAILURE_KIND_WORDS[lang].other!;
}

/** A judge by its kind, as a sentence names it (the web's verdict strings say the same). */
const JUDGE_WORDS: Record<MessageLanguage, Record<string, string>> = {
  en: {
    review: "the review judge",
    rubric: "the rubric judge",
    reference: "the reference judge",
    offline: "the offline judge",
    token_precision: "the token precision judge",
    contains_reference: "the contains-the-reference judge",
    pairwise: "the pairwise judge",
  },
  zh: {
    review: "审核评判",
    rubric: "评分细则评判",
    reference: "参考答案评判",
    offline: "离线评判",
    token_precision: "词元精确率评判",
    contains_reference: "包含参考答案评判",
    pairwise: "成对评判",
  },
};

/** "24 × the model's server answered with an error (e.g. HTTP 500 …)", one group a clause. */
function failureList(groups: readonly FailureGroupParam[], lang: MessageLanguage): string {
  return groups
    .map((g) =>
      lang === "zh"
        ? `${g.count} × ${failureKindWords(g.kind, lang)}（例如：${g.example}）`
        : `${g.count} × ${failureKindWords(g.kind, lang)} (e.g. ${g.example})`,
    )
    .join(lang === "zh" ? "；" : "; ");
}

/** English templates; `{name}` is filled from params. The keys are the codes. */
const EN = {
  // A stored text from before codes existed, shown as it was written.
  plain: "{text}",
  "chart.histogram_binned": "The 0–1 score of each scored result, in {bins} bins of {width}.",
  "calibration.few_labels":
    "Only {n} labelled results: the intervals are wide and a few more labels can change the verdict (label at least {min}).",
  "calibration.skipped_judge_errors":
    "{n} labelled results were skipped because {judge} could not judge them.",
  "calibration.no_ppi":
    "No prediction-powered pass rate: it needs at least 2 labelled and 1 unlabelled judged result.",
  "fewshot.no_candidates": "No result has both a person's score and an answer to learn from.",
  "fewshot.no_low_example":
    "No answer scored {cutoff} or less states something: label a made-up answer low so the judge learns to score such answers low.",
  "fewshot.few_candidates":
    "Only {picked} labelled results to choose from ({asked} were asked for).",
  "generation.heuristic":
    "No LLM is configured, so the built-in generator wrote these: each question asks for a number, date or name stated in one sentence (or links two sentences), and its ground truth is that sentence.",
  "generation.question_dropped":
    "A question from passage {chunk} of document {document} was dropped: {problem}",
  "generation.repeats": "{n} generated questions repeated an earlier one and were dropped.",
  "generation.too_few": "Only {made} of {asked} questions: all {chunks} passages were used.",
  "generation.no_fact":
    "Passage {chunk} of document {document} has no sentence with a number, date or name to ask about.",
  "generation.unusable_reply":
    "The model's reply for passage {chunk} of document {document} was unusable, so it gave no questions: {error}",
  "generation.unusable_items":
    "{n} items the model wrote for passage {chunk} of document {document} were unusable: {problems}",
  "generation.unrequested_types":
    "{n} questions of types that were not asked for were dropped (passage {chunk} of document {document}).",
  "generation.no_usable_question": "No usable question was generated: {failures}.",
  "generation.no_usable_question_warned":
    "No usable question was generated ({n} problems; the first: {first}).",
  "generation.invalid_settings": "The generation's stored settings are invalid: {error}",
  "generation.error": "The generation stopped with an error: {error}",
  "arena.all_judgments_failed": "All {n} pairwise judgments failed: {failures}.",
  "arena.no_usable_results":
    "No question has a usable result from two contestants: every answer or score is missing or an error.",
  "arena.contestant_failed": "Contestant “{name}”: its evaluation run failed ({reason}).",
  "arena.contestant_failed_unexplained": "Contestant “{name}”: its evaluation run failed.",
  "arena.contestant_cancelled": "Contestant “{name}”: its evaluation run was cancelled.",
  "arena.contestant_deleted": "Contestant “{name}”: its evaluation run was deleted.",
  "arena.error": "The arena stopped with an error: {error}",
} as const;

export type MessageCode = keyof typeof EN;

const ZH: Record<MessageCode, string> = {
  plain: "{text}",
  "chart.histogram_binned": "每个已评分结果的 0–1 得分，分为 {bins} 个区间，每个宽 {width}。",
  "calibration.few_labels":
    "只有 {n} 个已标注结果：区间很宽，再多几个标注就可能改变结论（至少标注 {min} 个）。",
  "calibration.skipped_judge_errors": "{n} 个已标注结果被跳过，因为{judge}评判没能评判它们。",
  "calibration.no_ppi": "无法给出预测增强的通过率：至少需要 2 个已标注和 1 个未标注的已评判结果。",
  "fewshot.no_candidates": "没有同时带人工评分和回答、可供学习的结果。",
  "fewshot.no_low_example":
    "没有得分在 {cutoff} 及以下且有实际陈述的回答：请给一个编造的回答打低分，让评判学会给这类回答打低分。",
  "fewshot.few_candidates": "只有 {picked} 个已标注结果可选（要求 {asked} 个）。",
  "generation.heuristic":
    "没有配置 LLM，因此由内置生成器出题：每个问题询问某一句中的数字、日期或名称（或把两句联系起来），参考答案就是那句话。",
  "generation.question_dropped": "文档 {document} 的段落 {chunk} 生成的一个问题被丢弃：{problem}",
  "generation.repeats": "{n} 个生成的问题与之前的问题重复，已丢弃。",
  "generation.too_few": "只生成了 {made} / {asked} 个问题：全部 {chunks} 个段落都已用完。",
  "generation.no_fact": "文档 {document} 的段落 {chunk} 中没有含数字、日期或名称、可以提问的句子。",
  "generation.unusable_reply":
    "模型对文档 {document} 的段落 {chunk} 的回复无法使用，没有得到问题：{error}",
  "generation.unusable_items":
    "模型为文档 {document} 的段落 {chunk} 写的 {n} 项无法使用：{problems}",
  "generation.unrequested_types":
    "{n} 个不属于所要求类型的问题已丢弃（文档 {document} 的段落 {chunk}）。",
  "generation.no_usable_question": "没有生成可用的问题：{failures}。",
  "generation.no_usable_question_warned": "没有生成可用的问题（{n} 个问题；第一个：{first}）。",
  "generation.invalid_settings": "保存的生成设置无效：{error}",
  "generation.error": "生成因错误而停止：{error}",
  "arena.all_judgments_failed": "全部 {n} 次成对评判都失败了：{failures}。",
  "arena.no_usable_results": "没有任何问题同时有两个参赛者的可用结果：每个回答或得分都缺失或出错。",
  "arena.contestant_failed": "参赛者“{name}”：其评估失败（{reason}）。",
  "arena.contestant_failed_unexplained": "参赛者“{name}”：其评估失败。",
  "arena.contestant_cancelled": "参赛者“{name}”：其评估已取消。",
  "arena.contestant_deleted": "参赛者“{name}”：其评估已被删除。",
  "arena.error": "竞技场因错误而停止：{error}",
};

const TEMPLATES: Record<MessageLanguage, Record<MessageCode, string>> = { en: EN, zh: ZH };

/** Every code the catalogue words. */
export const MESSAGE_CODES = Object.keys(EN) as MessageCode[];

/** The template of a code in a language (for tests and catalogues). */
export function messageTemplate(code: MessageCode, lang: MessageLanguage): string {
  return TEMPLATES[lang][code];
}

function isMessageCode(code: string): code is MessageCode {
  return Object.hasOwn(EN, code);
}

function fill(template: string, params: MessageParams, lang: MessageLanguage): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name]!;
    if (typeof value === "object") return failureList(value, lang);
    // A judge's kind is a name in the CLI, not in a sentence.
    if (name === "judge") return JUDGE_WORDS[lang][String(value)] ?? String(value);
    return String(value);
  });
}

/**
 * The words of a message in a language. A code this catalogue does not know (a newer server's)
 * reads as the English message it came with.
 */
export function wordMessage(
  message: Pick<CodedMessage, "code" | "params"> & { message?: string },
  lang: MessageLanguage,
): string {
  if (!isMessageCode(message.code)) return message.message ?? message.code;
  return fill(TEMPLATES[lang][message.code], message.params, lang);
}

/** A message for a person: its code, what fills it, and its English words. */
export function codedMessage(code: MessageCode, params: MessageParams = {}): CodedMessage {
  return { code, params, message: wordMessage({ code, params }, "en") };
}

/** A stored value that may predate codes (a plain string) as a coded message. */
export function asCodedMessage(value: unknown): CodedMessage | null {
  if (typeof value === "string") return codedMessage("plain", { text: value });
  if (value !== null && typeof value === "object") {
    const v = value as Partial<CodedMessage>;
    if (typeof v.code === "string" && v.params !== null && typeof v.params === "object") {
      return {
        code: v.code,
        params: v.params,
        message: typeof v.message === "string" ? v.message : v.code,
      };
    }
  }
  return null;
}
