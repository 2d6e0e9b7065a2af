// The question import's rules, used by schema.ts, duplicates.ts and the one reader of question
// files (parse-file.ts), which the server's import and the web app's FileUploadParser share, so
// what parses in the browser is what the server saves. Pure; its problems are coded messages
// (text/user-messages.ts, a leaf the web app bundles too).
import { type CodedMessage, codedMessage, messagePart } from "../../text/user-messages.js";

/** Seed 003 questions.question_type. */
export const QUESTION_TYPES = ["FACTUAL", "INFERENTIAL", "USER_DEFINED"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const QUESTION_LIMITS = {
  questionChars: 10_000,
  groundTruthChars: 50_000,
  referenceContextChars: 20_000,
  /** Acceptable references (ground_truths) of one question. */
  referencesPerQuestion: 50,
  /** Relevant ids, or reference texts, of one question. */
  relevantPerQuestion: 100,
  relevantIdChars: 1_000,
  /** Questions in one set, and rows in one import. */
  questionsPerSet: 10_000,
  /** Bytes of one import file or request body. */
  importBytes: 10 * 1024 * 1024,
} as const;

const PUNCTUATION = /\p{P}+/gu;
const WHITESPACE = /\s+/gu;
// Chinese and Japanese are written without spaces, so a space next to one of their characters is
// typing noise ("兰亭 县" and "兰亭县" are one question). Hangul is left alone: it uses spaces.
const SPACE_BY_CJK =
  /(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]) | (?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu;

/**
 * The form two questions share when they are the same question: NFKC (full-width to ASCII),
 * lower-case, punctuation (ASCII and CJK alike) dropped, whitespace collapsed.
 */
export function questionKey(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(PUNCTUATION, " ")
    .replace(WHITESPACE, " ")
    .trim()
    .replace(SPACE_BY_CJK, "");
}

/** A question's fields as an import file names them. */
export type QuestionField =
  "question_type" | "question_text" | "ground_truth" | "reference_context" | QuestionListField;

/** Fields holding a list: a JSON list, or in a CSV cell its JSON text (or a single item). */
export type QuestionListField = "ground_truths" | "relevant_ids" | "reference_contexts";

/** What one item of each list field is, as its messages name it. */
export const QUESTION_LIST_FIELDS: Record<QuestionListField, "reference" | "id" | "passage"> = {
  ground_truths: "reference",
  relevant_ids: "id",
  reference_contexts: "passage",
};

export function isQuestionListField(field: string): field is QuestionListField {
  return Object.hasOwn(QUESTION_LIST_FIELDS, field);
}

/** Header names and JSON keys, normalized (lower-case, spaces and hyphens as "_"). */
const FIELD_ALIASES: Record<string, QuestionField> = {
  question_type: "question_type",
  type: "question_type",
  question_text: "question_text",
  question: "question_text",
  ground_truth: "ground_truth",
  answer: "ground_truth",
  expected: "ground_truth",
  ground_truths: "ground_truths",
  references: "ground_truths",
  reference_context: "reference_context",
  relevant_ids: "relevant_ids",
  reference_contexts: "reference_contexts",
};

/** The field a CSV header or JSON key names, in any of its spellings; unknown names give none. */
export function questionFieldOf(name: string): QuestionField | undefined {
  const normalized = name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  return Object.hasOwn(FIELD_ALIASES, normalized) ? FIELD_ALIASES[normalized] : undefined;
}

/** "factual", "Factual" and "user defined" as written by hand: FACTUAL, USER_DEFINED; blank is none. */
export function questionTypeOf(text: string): string | undefined {
  const type = text
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "_");
  return type === "" ? undefined : type;
}

/** Why a question type is refused, naming the accepted ones. */
export function unknownTypeProblem(written: unknown): CodedMessage {
  return codedMessage("file.unknown_type", {
    type: String(written),
    types: QUESTION_TYPES.join(", "),
  });
}

/** What one item of a list is called, by the noun the reader gives. */
const ITEM_WORDS = {
  reference: ["file.item.reference", "file.items.reference"],
  id: ["file.item.id", "file.items.id"],
  passage: ["file.item.passage", "file.items.passage"],
} as const;

/**
 * A list field's value (`ground_truths`, `relevant_ids`, `reference_contexts`): a JSON list of
 * strings, or (a CSV cell) its JSON text; any other text is one item. Returns the problem as a
 * coded message, naming what an item is (`noun`).
 */
export function referenceListOf(
  cell: unknown,
  noun: keyof typeof ITEM_WORDS = "reference",
): string[] | CodedMessage {
  const [item, items] = ITEM_WORDS[noun];
  let value = cell;
  if (typeof value === "string") {
    const text = value.trim();
    if (text === "") return [];
    if (!text.startsWith("[")) return [text];
    try {
      value = JSON.parse(text);
    } catch (error) {
      return codedMessage("file.list_not_json", {
        items: messagePart(items),
        detail: error instanceof Error ? error.message : String(error),
      });
    }
  }
  if (!Array.isArray(value)) return codedMessage("file.list_expected", { item: messagePart(item) });
  const bad = value.findIndex((entry) => typeof entry !== "string");
  if (bad >= 0) return codedMessage("file.list_item_not_text", { index: bad + 1 });
  if ((value as string[]).some((entry) => entry.includes("\u0000"))) {
    return codedMessage("file.nul");
  }
  return (value as string[]).map((entry) => entry.trim()).filter((entry) => entry !== "");
}
