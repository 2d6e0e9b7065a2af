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

/**
 * A clause or sentence worded by its own code, inside another message (the offline judge's reason
 * is its notes, each a code). Parts in a list are joined as clauses ("; "), or as sentences when
 * the placeholder is named `sentences`.
 */
export interface MessagePart {
  code: string;
  params: MessageParams;
}

export type MessageParam =
  | string
  | number
  | readonly string[]
  | readonly FailureGroupParam[]
  | MessagePart
  | readonly MessagePart[];
// An interface, not a type alias: MessagePart refers back to it.
export interface MessageParams {
  readonly [name: string]: MessageParam;
}

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
  // Sentences joined into one text (the offline judge's suggestions).
  sentences: "{sentences}",
  // The offline judge (judges/offline/heuristic-rubric.ts): its reason is its notes, joined.
  "offline.reason": "Heuristic (no LLM): {notes}.",
  "offline.note.empty": "the answer is empty",
  "offline.note.declines_as_reference": "declines to answer, as the ground truth does",
  "offline.note.declines_answer_retrieved":
    "declines although the contexts hold {share}% of the ground truth",
  "offline.note.declines_no_contexts": "honestly declines; no contexts were retrieved",
  "offline.note.declines_answer_missing":
    "honestly declines; the contexts hold only {share}% of the ground truth",
  "offline.note.declines_unchecked":
    "declines to answer; without a ground truth it cannot be checked that the contexts lack the answer",
  "offline.note.states_reference": "states the reference{which} ({how})",
  "offline.note.guesses": "names the reference{which} only as one of several guesses",
  "offline.note.less_precise": "states the reference{which} less precisely",
  "offline.note.states_part": "states part of the reference{which} ({share}% of its facts)",
  "offline.note.contradicts": "contradicts the reference{which}: {contradictions}",
  "offline.note.misses_reference": "does not state the reference{which}",
  "offline.note.exact": "matches the ground truth exactly",
  "offline.note.declines_like_reference": "declines as the ground truth does",
  "offline.note.answers_unknown": "answers although the ground truth says the answer is not known",
  "offline.note.nothing_checkable": "adds nothing checkable to the question",
  "offline.note.unverified":
    "no contexts and no ground truth to check it against, so its claims are unverified",
  "offline.note.partly_declines": "partly declines",
  "offline.note.repeats": "repeats itself ({share}% of its phrases)",
  "offline.note.off_question": "shares no word with the question",
  "offline.note.very_long": "very long",
  "offline.note.support_references": "the references and contexts support {what}",
  "offline.note.support_contexts": "the contexts support {what}",
  "offline.which_reference": " (reference {index} of {total})",
  "offline.how.in_order": "its words, in order",
  "offline.how.last_name": "by the last word of the name",
  "offline.how.less_precisely": "its facts, less precisely",
  "offline.how.facts": "{share}% of its facts",
  "offline.support.words": "{words}% of its added words",
  "offline.support.numbers": "{numbers}% of its numbers",
  "offline.support.words_and_numbers": "{words}% of its added words and {numbers}% of its numbers",
  "offline.conflict.other_value": "{answer} where the reference says {reference}",
  "offline.conflict.denies_value": "denies {what}",
  "offline.conflict.denies_reference": 'denies "{what}"',
  "offline.tip.answer_from_contexts":
    "The contexts contain the answer: answer from them instead of declining.",
  "offline.tip.improve_retrieval": "Improve retrieval: the contexts do not contain the answer.",
  "offline.tip.state_reference": "State what the reference says: {missing}.",
  "offline.tip.correct": "Correct the answer: it contradicts the reference.",
  "offline.tip.remove_unsupported":
    "Remove or source what the evidence does not support: {unsupported}.",
  "offline.tip.say_unknown": "Say that the sources do not give the answer instead of answering.",
  "offline.tip.give_evidence": "Give the judge the retrieved contexts or a ground truth.",
  "offline.tip.remove_repeats": "Remove repeated sentences.",
  "offline.tip.answer_question": "Answer the question that was asked.",
  "offline.tip.answer_or_decline":
    "Answer the question, or say that the sources do not give the answer.",
  "offline.tip.none": "None from the lexical checks.",
  // Clauses joined into one text (the offline judge's analysis: the signals behind its scores).
  clauses: "{clauses}",
  "offline.signal.abstention": "abstention {level}",
  "offline.signal.groundedness": "groundedness {value}",
  "offline.signal.supported_words": "supported added tokens {supported}/{total}",
  "offline.signal.supported_numbers": "supported numbers {supported}/{total}",
  "offline.signal.exact_match": "exact match {value}",
  "offline.signal.f1": "F1 {value}",
  "offline.signal.rouge_l": "ROUGE-L {value}",
  "offline.signal.ground_truth_coverage": "ground-truth coverage {value}",
  "offline.signal.ground_truth_in_contexts": "ground truth in contexts {value}",
  "offline.signal.sub_questions": "sub-questions {value}",
  "offline.signal.repetition": "repetition {value}",
  "offline.abstention.none": "none",
  "offline.abstention.partial": "partial",
  "offline.abstention.full": "full",
  // Where the offline verdict is known to do worse than a baseline judge (judges/offline/index.ts).
  "offline.limit.reference":
    "Against references, this judge agreed with people on {agreement}% of public TriviaQA answers it was not tuned on, more than the contains-the-reference judge ({baseline}%), but it ranked two close systems in the opposite order to people, where the contains-the-reference judge ranked them as people did; to rank systems that are close, check with the contains-the-reference judge too.",
  // The built-in bot's loop steps on a result card (rag/loops: each machine's explain).
  "trace.sources": "Searches {sources}, {priority} first.",
  "trace.retrieved": "Found {hits} passages for “{query}” ({counts}).",
  "trace.graded_high": "Graded the passages good (score {score}).",
  "trace.graded_medium": "Graded the passages fair (score {score}, {issues} problems).",
  "trace.graded_low": "Graded the passages poor (score {score}, {issues} problems).",
  "trace.rewrote": "Rewrote the question (attempt {attempt}): “{query}”.",
  "trace.first_answer": "Wrote an answer of {chars} characters with {citations} citations.",
  "trace.revised_answer":
    "Revised the answer (round {epoch}): {chars} characters, {citations} citations.",
  "trace.answer_fallback":
    "The model failed, so the built-in extractive generator wrote an answer of {chars} characters with {citations} citations.",
  "trace.check_passed": "The answer check passed the answer.",
  "trace.check_failed": "The answer check failed the answer, with {suggestions} suggestions.",
  "trace.check_error": "The answer check could not judge the answer.",
  "trace.gate_show": "The evidence gate shows the answer.",
  "trace.gate_warn": "The evidence gate shows the answer with a warning.",
  "trace.gate_refuse": "The evidence gate refuses the answer.",
  "trace.not_run": "Not run: the time budget of {ms} ms ran out.",
  "trace.aborted": "Stopped: the time budget of {ms} ms ran out.",
  // A question or answers file's problems (evals/questions/parse-file.ts), for the server's import
  // errors and the web app's upload preview. `{detail}` is a parser's own words (not translated).
  "file.too_large": "the file is {bytes} bytes; an import may be at most {max} bytes",
  "file.unknown_format": "{file}: expected a .csv, .json or .jsonl file",
  "file.empty": "the file is empty: no questions",
  "file.header_only": "the file has a header but no questions",
  "file.no_questions": "the file holds no questions",
  "file.no_answers": "no answers in the file",
  "file.too_many_rows": "the file holds {count} rows; an import may hold at most {max}",
  "file.not_utf8": "not valid UTF-8 (save the file as UTF-8)",
  "file.not_csv": "not valid CSV: {detail}",
  "file.extra_fields":
    "{fields} fields but the header has {header} (quote a value that holds a comma)",
  "file.header_twice": 'the header has two columns for {field}: "{earlier}" and "{name}"',
  "file.header_no_question":
    "the first row must be a header with a {column} (or {alias}) column; found: {found}",
  "file.not_json_line": "not JSON: {detail}",
  "file.not_json": "not valid JSON: {detail}",
  "file.not_json_at": "not valid JSON: {detail} (line {line})",
  "file.json_value": "{detail}",
  "file.json_value_at": "{path}: {detail}",
  "file.not_a_list": 'expected a JSON array of questions, or an object {"questions": [...]}',
  "file.question_not_object": "expected an object with a {field} field",
  "file.answer_not_object": "expected an object with question and answer fields",
  "file.expected_text": "expected text, got {kind}",
  "file.kind.list": "a list",
  "file.kind.object": "an object",
  "file.kind.number": "a number ({value})",
  "file.kind.boolean": "a boolean ({value})",
  "file.kind.value": "a {type} ({value})",
  "file.nul": "contains a NUL character (\\u0000), which cannot be stored",
  "file.unknown_type": '"{type}" is not one of {types}',
  "file.given_twice": 'given twice, as "{earlier}" and "{key}"',
  "file.missing_question": "missing: expected a non-empty question",
  "file.empty_question": "a non-empty question",
  "file.duplicate": "duplicate of row {earlier}",
  "file.same_question": "the same question as row {earlier}",
  "file.list_not_json": "not a JSON list of {items}: {detail}",
  "file.list_expected": "expected a list of {item} strings",
  "file.list_item_not_text": "item {index}: expected a string",
  "file.item.reference": "reference",
  "file.item.id": "id",
  "file.item.passage": "passage",
  "file.items.reference": "references",
  "file.items.id": "ids",
  "file.items.passage": "passages",
  // A value the schema refused: by the limit it broke, else in the schema's own words.
  "file.invalid": "{detail}",
  "file.too_long": "too long: at most {max} characters",
  "file.too_many": "too many: at most {max} items",
  "file.too_short": "too short: at least {min} characters",
  "file.empty_value": "{detail}",
  "file.missing": "missing: {detail}",
  "file.wrong_type": "{detail}",
  // The upload forms' own words: they count by the file's lines, and say less.
  "file.form.empty_question": "the question is empty",
  "file.form.repeats_line": "repeats the question on line {line}",
  "file.form.repeats_item": "repeats the question on item {line}",
  "file.form.not_object": "not a JSON object",
  "file.form.same_question": "the same question as row {line}",
} as const;

export type MessageCode = keyof typeof EN;

const ZH: Record<MessageCode, string> = {
  plain: "{text}",
  "chart.histogram_binned": "每个已评分结果的 0–1 得分，分为 {bins} 个区间，每个宽 {width}。",
  "calibration.few_labels":
    "只有 {n} 个已标注结果：区间很宽，再多几个标注就可能改变结论（至少标注 {min} 个）。",
  "calibration.skipped_judge_errors": "{n} 个已标注结果被跳过，因为{judge}没能评判它们。",
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
  sentences: "{sentences}",
  "offline.reason": "启发式评判（未用 LLM）：{notes}。",
  "offline.note.empty": "回答为空",
  "offline.note.declines_as_reference": "拒绝回答，与参考答案一致",
  "offline.note.declines_answer_retrieved": "拒绝回答，但上下文包含参考答案的 {share}%",
  "offline.note.declines_no_contexts": "如实拒绝回答；没有检索到上下文",
  "offline.note.declines_answer_missing": "如实拒绝回答；上下文只包含参考答案的 {share}%",
  "offline.note.declines_unchecked": "拒绝回答；没有参考答案，无法核实上下文中确实没有答案",
  "offline.note.states_reference": "说出了参考答案{which}（{how}）",
  "offline.note.guesses": "只把参考答案{which}作为几个猜测之一说出",
  "offline.note.less_precise": "说出了参考答案{which}，但不够精确",
  "offline.note.states_part": "说出了参考答案{which}的一部分（其事实的 {share}%）",
  "offline.note.contradicts": "与参考答案{which}矛盾：{contradictions}",
  "offline.note.misses_reference": "没有说出参考答案{which}",
  "offline.note.exact": "与参考答案完全一致",
  "offline.note.declines_like_reference": "像参考答案一样拒绝回答",
  "offline.note.answers_unknown": "参考答案说答案未知，但仍然作了回答",
  "offline.note.nothing_checkable": "除了问题本身，没有可核实的内容",
  "offline.note.unverified": "没有上下文也没有参考答案可供核对，因此其陈述未经核实",
  "offline.note.partly_declines": "部分拒绝回答",
  "offline.note.repeats": "内容重复（其短语的 {share}%）",
  "offline.note.off_question": "与问题没有任何共同的词",
  "offline.note.very_long": "非常长",
  "offline.note.support_references": "参考答案和上下文支持{what}",
  "offline.note.support_contexts": "上下文支持{what}",
  "offline.which_reference": "（共 {total} 个参考答案中的第 {index} 个）",
  "offline.how.in_order": "其词语，按原顺序",
  "offline.how.last_name": "凭名称的最后一个词",
  "offline.how.less_precisely": "其事实，但不够精确",
  "offline.how.facts": "其事实的 {share}%",
  "offline.support.words": "其新增词语的 {words}%",
  "offline.support.numbers": "其数字的 {numbers}%",
  "offline.support.words_and_numbers": "其新增词语的 {words}% 和其数字的 {numbers}%",
  "offline.conflict.other_value": "回答说 {answer}，而参考答案说 {reference}",
  "offline.conflict.denies_value": "否认了 {what}",
  "offline.conflict.denies_reference": "否认了“{what}”",
  "offline.tip.answer_from_contexts": "上下文中有答案：请根据上下文回答，而不是拒绝回答。",
  "offline.tip.improve_retrieval": "请改进检索：上下文中没有答案。",
  "offline.tip.state_reference": "请说出参考答案中的内容：{missing}。",
  "offline.tip.correct": "请更正回答：它与参考答案矛盾。",
  "offline.tip.remove_unsupported": "请删除证据不支持的内容，或注明其来源：{unsupported}。",
  "offline.tip.say_unknown": "请说明资料中没有给出答案，而不是作答。",
  "offline.tip.give_evidence": "请向评判提供检索到的上下文或参考答案。",
  "offline.tip.remove_repeats": "请删除重复的句子。",
  "offline.tip.answer_question": "请回答所提出的问题。",
  "offline.tip.answer_or_decline": "请回答问题，或说明资料中没有给出答案。",
  "offline.tip.none": "词汇检查没有提出建议。",
  clauses: "{clauses}",
  "offline.signal.abstention": "拒答 {level}",
  "offline.signal.groundedness": "有据性 {value}",
  "offline.signal.supported_words": "有支持的新增词元 {supported}/{total}",
  "offline.signal.supported_numbers": "有支持的数字 {supported}/{total}",
  "offline.signal.exact_match": "完全匹配 {value}",
  "offline.signal.f1": "F1 值 {value}",
  "offline.signal.rouge_l": "ROUGE-L 值 {value}",
  "offline.signal.ground_truth_coverage": "参考答案覆盖率 {value}",
  "offline.signal.ground_truth_in_contexts": "上下文中的参考答案 {value}",
  "offline.signal.sub_questions": "子问题 {value}",
  "offline.signal.repetition": "重复 {value}",
  "offline.abstention.none": "无",
  "offline.abstention.partial": "部分",
  "offline.abstention.full": "完全",
  "offline.limit.reference":
    "对照参考答案时，该评判在未用于调参的公开 TriviaQA 回答上与人工判断的一致率为 {agreement}%，高于“包含参考答案”评判（{baseline}%）；但它给两个相近系统的排序与人工相反，而“包含参考答案”评判的排序与人工一致。要给相近的系统排序，请同时用“包含参考答案”评判核对。",
  "trace.sources": "检索 {sources}，优先 {priority}。",
  "trace.retrieved": "为“{query}”找到 {hits} 个段落（{counts}）。",
  "trace.graded_high": "段落评级为好（得分 {score}）。",
  "trace.graded_medium": "段落评级为一般（得分 {score}，{issues} 个问题）。",
  "trace.graded_low": "段落评级为差（得分 {score}，{issues} 个问题）。",
  "trace.rewrote": "改写了问题（第 {attempt} 次）：“{query}”。",
  "trace.first_answer": "写出了一个 {chars} 个字符的回答，含 {citations} 处引用。",
  "trace.revised_answer": "修改了回答（第 {epoch} 轮）：{chars} 个字符，{citations} 处引用。",
  "trace.answer_fallback":
    "模型调用失败，因此由内置抽取式生成器写出了一个 {chars} 个字符的回答，含 {citations} 处引用。",
  "trace.check_passed": "回答检查通过了该回答。",
  "trace.check_failed": "回答检查未通过该回答，给出 {suggestions} 条建议。",
  "trace.check_error": "回答检查无法评判该回答。",
  "trace.gate_show": "门控显示该回答。",
  "trace.gate_warn": "门控显示该回答，但附带警告。",
  "trace.gate_refuse": "门控拒绝了该回答。",
  "trace.not_run": "未运行：{ms} 毫秒的时间预算已用完。",
  "trace.aborted": "已中止：{ms} 毫秒的时间预算已用完。",
  "file.too_large": "文件有 {bytes} 字节；一次导入最多 {max} 字节",
  "file.unknown_format": "{file}：需要 .csv、.json 或 .jsonl 文件",
  "file.empty": "文件是空的：没有问题",
  "file.header_only": "文件只有表头，没有问题",
  "file.no_questions": "文件中没有问题",
  "file.no_answers": "文件中没有回答",
  "file.too_many_rows": "文件有 {count} 行；一次导入最多 {max} 行",
  "file.not_utf8": "不是有效的 UTF-8（请把文件另存为 UTF-8）",
  "file.not_csv": "不是有效的 CSV：{detail}",
  "file.extra_fields": "有 {fields} 个字段，但表头只有 {header} 个（含逗号的值请加引号）",
  "file.header_twice": "表头中 {field} 有两列：“{earlier}”和“{name}”",
  "file.header_no_question": "第一行必须是含 {column}（或 {alias}）列的表头；实际为：{found}",
  "file.not_json_line": "不是 JSON：{detail}",
  "file.not_json": "不是有效的 JSON：{detail}",
  "file.not_json_at": "不是有效的 JSON：{detail}（第 {line} 行）",
  "file.json_value": "JSON 内容无效：{detail}",
  "file.json_value_at": "{path}：JSON 内容无效：{detail}",
  "file.not_a_list": '应为问题的 JSON 数组，或对象 {"questions": [...]}',
  "file.question_not_object": "应为含 {field} 字段的对象",
  "file.answer_not_object": "应为含 question 和 answer 字段的对象",
  "file.expected_text": "应为文本，实际是{kind}",
  "file.kind.list": "列表",
  "file.kind.object": "对象",
  "file.kind.number": "数字（{value}）",
  "file.kind.boolean": "布尔值（{value}）",
  "file.kind.value": "{type} 类型的值（{value}）",
  "file.nul": "包含无法保存的 NUL 字符（\\u0000）",
  "file.unknown_type": "“{type}”不是 {types} 之一",
  "file.given_twice": "给了两次：“{earlier}”和“{key}”",
  "file.missing_question": "缺少：应为非空的问题",
  "file.empty_question": "应为非空的问题",
  "file.duplicate": "与第 {earlier} 行重复",
  "file.same_question": "与第 {earlier} 行的问题相同",
  "file.list_not_json": "不是{items}的 JSON 列表：{detail}",
  "file.list_expected": "应为{item}文本的列表",
  "file.list_item_not_text": "第 {index} 项：应为文本",
  "file.item.reference": "参考答案",
  "file.item.id": "编号",
  "file.item.passage": "段落",
  "file.items.reference": "参考答案",
  "file.items.id": "编号",
  "file.items.passage": "段落",
  "file.invalid": "值无效：{detail}",
  "file.too_long": "太长：最多 {max} 个字符",
  "file.too_many": "太多：最多 {max} 项",
  "file.too_short": "太短：至少 {min} 个字符",
  "file.empty_value": "不能为空：{detail}",
  "file.missing": "缺少此字段：{detail}",
  "file.wrong_type": "类型不对：{detail}",
  "file.form.empty_question": "问题为空",
  "file.form.repeats_line": "与第 {line} 行的问题重复",
  "file.form.repeats_item": "与第 {line} 项的问题重复",
  "file.form.not_object": "不是 JSON 对象",
  "file.form.same_question": "与第 {line} 行的问题相同",
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

/** How the items of a list placeholder are joined, by what they are. */
const SEPARATORS: Record<"clauses" | "sentences" | "words", Record<MessageLanguage, string>> = {
  clauses: { en: "; ", zh: "；" },
  sentences: { en: " ", zh: "" },
  words: { en: ", ", zh: "、" },
};

function isPart(value: unknown): value is MessagePart {
  return (
    value !== null && typeof value === "object" && typeof (value as MessagePart).code === "string"
  );
}

function isFailureGroup(value: unknown): value is FailureGroupParam {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as FailureGroupParam).kind === "string"
  );
}

function fillParam(name: string, value: MessageParam, lang: MessageLanguage): string {
  if (isPart(value)) return wordMessage(value, lang);
  if (Array.isArray(value)) {
    const items = value as readonly unknown[];
    if (items.every(isFailureGroup)) return failureList(items as FailureGroupParam[], lang);
    if (items.every(isPart)) {
      const separator = SEPARATORS[name === "sentences" ? "sentences" : "clauses"][lang];
      return items.map((part) => wordMessage(part, lang)).join(separator);
    }
    return items.map(String).join(SEPARATORS.words[lang]);
  }
  // A judge's kind is a name in the CLI, not in a sentence.
  if (name === "judge") return JUDGE_WORDS[lang][String(value)] ?? String(value);
  return String(value);
}

function fill(template: string, params: MessageParams, lang: MessageLanguage): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? fillParam(name, params[name]!, lang) : whole,
  );
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

/** A clause of a longer message (the offline judge's notes): a code and what fills it. */
export function messagePart(code: MessageCode, params: MessageParams = {}): MessagePart {
  return { code, params };
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
