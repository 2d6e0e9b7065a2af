import type { PromptLanguage } from "../../judges/index.js";
import { extractNumbers, type NumberMention, splitSentences } from "../../text/index.js";

// The generator used when no LLM is configured. It cannot understand a text, so it asks only what
// a sentence states outright: a number, a date or a name becomes the question's gap and the whole
// sentence is the ground truth. Inferential questions link two such sentences of one chunk.
// Everything is a pure function of the chunk text: the same chunk always gives the same questions.

export type GeneratedQuestionType = "FACTUAL" | "INFERENTIAL";

export interface HeuristicQuestion {
  question_type: GeneratedQuestionType;
  question_text: string;
  ground_truth: string;
}

export interface HeuristicOptions {
  types: readonly GeneratedQuestionType[];
  language: PromptLanguage;
}

/** The fact a factual question asks for: the span replaced by a question word. */
interface Gap {
  start: number;
  end: number;
  /** The question word(s) put in its place. */
  ask: string;
  kind: "quantity" | "date" | "year" | "name";
}

interface AnalysedSentence {
  text: string;
  /** Without its final full stop or semicolon. */
  body: string;
  /** A number or date to ask for. */
  gap?: Gap;
  /** The longest name (English) or quoted term (Chinese), for name questions and pairing. */
  name?: { text: string; start: number; end: number };
  /** The first year or date as written, for pairing. */
  time?: string;
}

/** Sentences shorter than this (words, or characters for Chinese) say too little to ask about. */
const MIN_WORDS = 6;
const MIN_CJK_CHARS = 10;
/** A longer sentence makes an unreadable question. */
const MAX_SENTENCE_CHARS = 320;

/**
 * Questions from one chunk, best first: factual ones from the sentences holding a number, a date
 * or a name, inferential ones linking two such sentences of the chunk, interleaved when both
 * types are wanted. Sentences without such a fact give nothing.
 */
export function heuristicQuestions(
  content: string,
  options: HeuristicOptions,
): HeuristicQuestion[] {
  const zh = options.language === "zh";
  const sentences = splitSentences(content)
    .map((s) => s.text)
    .filter((text) => usableSentence(text, zh));
  const capitalisedInside = zh ? new Set<string>() : wordsCapitalisedInside(sentences);
  const analysed = sentences.map((text) => analyse(text, zh, capitalisedInside));

  const factual = options.types.includes("FACTUAL") ? factualQuestions(analysed, zh) : [];
  const inferential = options.types.includes("INFERENTIAL")
    ? inferentialQuestions(analysed, zh)
    : [];
  return interleave(factual, inferential);
}

function usableSentence(text: string, zh: boolean): boolean {
  // Headings, list markers and table rows are not statements.
  if (/^\s*(#|\||[-*+]\s)/.test(text) || text.length > MAX_SENTENCE_CHARS) return false;
  if (zh) return (text.match(/\p{Script=Han}/gu)?.length ?? 0) >= MIN_CJK_CHARS;
  return text.split(/\s+/).length >= MIN_WORDS && /[.!;]["')\]]*$/.test(text);
}

function stripEnd(text: string): string {
  return text.replace(/[\s.。;；!！]+$/u, "");
}

function analyse(text: string, zh: boolean, capitalisedInside: Set<string>): AnalysedSentence {
  const body = stripEnd(text);
  const sentence: AnalysedSentence = { text, body };
  const gap = zh ? chineseNumberGap(body) : englishNumberGap(body);
  const name = zh ? quotedTerm(body) : englishName(body, capitalisedInside);
  const time = timeMention(body);
  if (gap) sentence.gap = gap;
  if (name) sentence.name = name;
  if (time) sentence.time = time;
  return sentence;
}

/** NFKC offsets are the text's own unless a character expands (e.g. "㎞"); then none are used. */
function numbersOf(text: string): NumberMention[] {
  return text.normalize("NFKC").length === text.length ? extractNumbers(text) : [];
}

const GAP_PRIORITY: Record<Gap["kind"], number> = { quantity: 0, date: 1, year: 2, name: 3 };

function bestGap(gaps: Gap[]): Gap | undefined {
  return gaps.sort((a, b) => GAP_PRIORITY[a.kind] - GAP_PRIORITY[b.kind] || a.start - b.start)[0];
}

/** Words after a year that do not make it a count ("in 1784 a group", "in 1811, when"). */
const AFTER_YEAR = new Set(
  "a an the and or but was were is are when which that who where as to for with after before its his her their this these those it they he she we on in at by of from".split(
    " ",
  ),
);

function englishNumberGap(body: string): Gap | undefined {
  const gaps: Gap[] = [];
  for (const m of numbersOf(body)) {
    const before = body.slice(0, m.index);
    const after = body.slice(m.end);
    // "5:30" is a time and "Line 1" a name: neither is a fact to count.
    if (/:$/.test(before) || /^:\d/.test(after) || /[A-Z][a-z]*\s$/.test(before)) continue;
    const nextWord = /^\s+([a-z]+)/.exec(after)?.[1];
    if (m.kind === "date") {
      const ask = /^\d{4}-\d{2}$/.test(m.value) ? "which month" : "which date";
      gaps.push({ start: m.index, end: m.end, ask, kind: "date" });
    } else if (m.kind === "year" || isYearLike(m, nextWord)) {
      // "after the 2016 flood" asks "after which year's flood".
      const attributive =
        nextWord !== undefined && !AFTER_YEAR.has(nextWord) && /\bthe $/.test(before);
      const start = attributive ? m.index - 4 : m.index;
      const ask = attributive ? "which year's" : "which year";
      gaps.push({ start, end: m.end, ask, kind: "year" });
    } else if (m.kind === "percent") {
      gaps.push({ start: m.index, end: m.end, ask: "what percentage", kind: "quantity" });
    } else if (/[$€£¥]$/.test(before)) {
      gaps.push({ start: m.index - 1, end: m.end, ask: "how much", kind: "quantity" });
    } else if (nextWord !== undefined || /^\s+million\b/.test(after)) {
      // "2.1 million passengers": the gap takes the multiplier too.
      const end = m.end + (/^\s+(million|billion|thousand)\b/.exec(after)?.[0].length ?? 0);
      gaps.push({ start: m.index, end, ask: "how many", kind: "quantity" });
    }
  }
  return bestGap(gaps);
}

/**
 * A four-digit number from 1000 to 2099 written without a comma is a year ("the 2016 flood"),
 * unless a plural noun follows it ("1200 buildings"): English writes counts that large "1,200".
 */
function isYearLike(m: NumberMention, nextWord: string | undefined): boolean {
  const value = Number(m.value);
  if (!/^\d{4}$/.test(m.raw) || value < 1000 || value > 2099) return false;
  return nextWord === undefined || AFTER_YEAR.has(nextWord) || !nextWord.endsWith("s");
}

function chineseNumberGap(body: string): Gap | undefined {
  const gaps: Gap[] = [];
  for (const m of numbersOf(body)) {
    const next = body[m.end] ?? "";
    if (m.kind === "date") {
      const ask = /^\d{4}-\d{2}$/.test(m.value) ? "哪年哪月" : "哪一天";
      gaps.push({ start: m.index, end: m.end, ask, kind: "date" });
    } else if (m.kind === "year" || next === "年") {
      const end = m.raw.endsWith("年") ? m.end : m.end + 1;
      gaps.push({ start: m.index, end, ask: "哪一年", kind: "year" });
    } else if (next === "月") {
      gaps.push({ start: m.index, end: m.end, ask: "几", kind: "date" });
    } else if (next === "号" || next === "日") {
      // "1号线" names a line; "12日" alone is a day, rarely a fact worth a question.
      continue;
    } else if (m.kind === "percent") {
      gaps.push({ start: m.index, end: m.end, ask: "百分之多少", kind: "quantity" });
    } else {
      gaps.push({ start: m.index, end: m.end, ask: "多少", kind: "quantity" });
    }
  }
  return bestGap(gaps);
}

/** A term in Chinese quotes or title marks: “白鹭”, 《地方志》, 「盐灯」. */
function quotedTerm(body: string): { text: string; start: number; end: number } | undefined {
  const match = /[“「《]([^”」》]{1,20})[”」》]/u.exec(body);
  if (!match) return undefined;
  return { text: match[0], start: match.index, end: match.index + match[0].length };
}

const NAME = /\b[A-Z][\p{L}'’-]*(?:\s+(?:of\s+(?:the\s+)?)?[A-Z][\p{L}'’-]*)*/gu;
/** Capitalised words that start sentences or clauses but name nothing. */
const NOT_NAMES = new Set(
  (
    "The A An In On At By For From After Before During When While Since Until This That These " +
    "Those It Its His Her Their Our Most Many Some Both Each Every One Two " +
    "Three Four Five January February March April May June July August September October " +
    "November December Monday Tuesday Wednesday Thursday Friday Saturday Sunday"
  ).split(" "),
);

/** Words written capitalised somewhere other than a sentence's start: names, not sentence case. */
function wordsCapitalisedInside(sentences: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const sentence of sentences) {
    for (const match of sentence.matchAll(/(?<=\S\s+)[A-Z][\p{L}'’-]*/gu)) words.add(match[0]);
  }
  return words;
}

/** The longest name in the sentence ("Brick Ordinance of 1870" gives "Brick Ordinance"). */
function englishName(
  body: string,
  capitalisedInside: Set<string>,
): { text: string; start: number; end: number } | undefined {
  let best: { text: string; start: number; end: number } | undefined;
  for (const match of body.matchAll(NAME)) {
    const words = [...match[0].matchAll(/\S+/g)].map((w) => ({
      word: w[0],
      start: match.index + w.index,
      end: match.index + w.index + w[0].length,
    }));
    // "The Great Fire" -> "Great Fire"; "In Lanting" -> "Lanting".
    while (words.length > 0 && NOT_NAMES.has((words[0] as { word: string }).word)) words.shift();
    while (words.length > 0 && /^(of|the)$/.test((words.at(-1) as { word: string }).word)) {
      words.pop();
    }
    const first = words[0];
    const last = words.at(-1);
    if (first === undefined || last === undefined) continue;
    // A lone capitalised word opening the sentence is sentence case unless written so elsewhere.
    if (words.length === 1 && first.start === 0 && !capitalisedInside.has(first.word)) continue;
    const text = body.slice(first.start, last.end);
    if (!best || text.length > best.text.length) best = { text, start: first.start, end: last.end };
  }
  return best;
}

/** The first date or year in the sentence, as written. */
function timeMention(body: string): string | undefined {
  for (const m of numbersOf(body)) {
    if (m.kind === "date" || m.kind === "year") return m.raw;
    if (/^\d{4}$/.test(m.raw) && isYearLike(m, /^\s+([a-z]+)/.exec(body.slice(m.end))?.[1])) {
      return m.raw;
    }
  }
  return undefined;
}

/** A sentence opening with a pronoun leans on the one before: alone it makes no question. */
const LEANS_ON_CONTEXT =
  /^(It|Its|They|Their|This|These|That|Those|He|She|His|Her)\b|^[这它其该此]/u;

function factualQuestions(
  sentences: readonly AnalysedSentence[],
  zh: boolean,
): HeuristicQuestion[] {
  const gapped: { sentence: AnalysedSentence; gap: Gap }[] = [];
  for (const sentence of sentences) {
    if (LEANS_ON_CONTEXT.test(sentence.text)) continue;
    const gap = sentence.gap ?? nameGap(sentence, sentences);
    if (gap) gapped.push({ sentence, gap });
  }
  // Numbers and dates make sharper questions than names: ask about them first.
  gapped.sort((a, b) => GAP_PRIORITY[a.gap.kind] - GAP_PRIORITY[b.gap.kind]);
  return gapped.map(({ sentence, gap }) => ({
    question_type: "FACTUAL",
    question_text: factualText(sentence.body, gap, zh),
    ground_truth: sentence.text,
  }));
}

/**
 * "What does the document say about X?" has one answer only when the chunk mentions X once; the
 * chunk's own subject ("Lanting" in a history of Lanting) is mentioned throughout.
 */
function nameGap(
  sentence: AnalysedSentence,
  sentences: readonly AnalysedSentence[],
): Gap | undefined {
  const name = sentence.name;
  if (name === undefined) return undefined;
  const mentions = sentences.filter((s) => s.body.includes(name.text)).length;
  return mentions === 1 ? { start: name.start, end: name.end, ask: "", kind: "name" } : undefined;
}

function factualText(body: string, gap: Gap, zh: boolean): string {
  if (gap.kind === "name") {
    const name = body.slice(gap.start, gap.end);
    return zh ? `文中关于${name}是怎么说的？` : `What does the document say about ${name}?`;
  }
  const asked = body.slice(0, gap.start) + gap.ask + body.slice(gap.end);
  if (zh) return `${asked.replace(/[，,、：:]+$/u, "")}？`;
  return `${asked.charAt(0).toUpperCase()}${asked.slice(1)}?`;
}

function inferentialQuestions(
  sentences: readonly AnalysedSentence[],
  zh: boolean,
): HeuristicQuestion[] {
  const questions: HeuristicQuestion[] = [];
  // Each sentence is linked to the nearest later one naming another thing, or another time; a
  // sentence is used in one pair at most.
  const used = new Set<number>();
  for (let i = 0; i < sentences.length; i++) {
    if (used.has(i)) continue;
    const a = sentences[i] as AnalysedSentence;
    for (let j = i + 1; j < sentences.length; j++) {
      const b = sentences[j] as AnalysedSentence;
      const question = used.has(j) ? undefined : linkQuestion(a, b, zh);
      if (question === undefined) continue;
      used.add(i).add(j);
      questions.push({
        question_type: "INFERENTIAL",
        question_text: question,
        ground_truth: zh ? `${a.text}${b.text}` : `${a.text} ${b.text}`,
      });
      break;
    }
  }
  return questions;
}

function linkQuestion(a: AnalysedSentence, b: AnalysedSentence, zh: boolean): string | undefined {
  if (a.name && b.name && a.name.text !== b.name.text) {
    return zh
      ? `根据文档，${a.name.text}与${b.name.text}之间有什么关系？`
      : `How are ${a.name.text} and ${b.name.text} related, according to the document?`;
  }
  if (a.time && b.time && a.time !== b.time) {
    return zh
      ? `${a.time}和${b.time}发生的事情之间有什么联系？`
      : `How are the events of ${a.time} and ${b.time} connected, according to the document?`;
  }
  return undefined;
}

/** Two factual questions to one inferential one while both last, then the rest. */
function interleave(
  factual: HeuristicQuestion[],
  inferential: HeuristicQuestion[],
): HeuristicQuestion[] {
  const out: HeuristicQuestion[] = [];
  let f = 0;
  let i = 0;
  while (f < factual.length || i < inferential.length) {
    for (let k = 0; k < 2 && f < factual.length; k++) out.push(factual[f++] as HeuristicQuestion);
    if (i < inferential.length) out.push(inferential[i++] as HeuristicQuestion);
  }
  return out;
}
