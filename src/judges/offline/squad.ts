// SQuAD's answer metrics: exact match and token F1 after normalize_answer (lower case, no
// punctuation, no English articles, whitespace collapsed).
//
// Chinese is written without spaces, so whitespace tokens would make a whole sentence one token.
// We follow MLQA's official script (its `mixed_segmentation` for zh, also used by CMRC 2018 and
// DRCD): every Han character is a token, other runs stay words. Character tokens do not depend on
// a word segmenter, whose cuts change with context ("首都是北京" vs "北京是中国的首都"), so the same
// words in prediction and reference always meet; and scores stay comparable with published
// Chinese QA results. Other words come from text/'s tokenize (NFKC, lower case, ICU for kana,
// Hangul and Thai).

import { normalizeText, stripCitationMarkers, tokenize } from "../../text/index.js";

/** MLQA's PUNCT: Unicode punctuation, plus the symbols in Python's string.punctuation. */
const PUNCTUATION = /[\p{P}$+<=>^`|~]/gu;
const HAN_CHARACTER = /\p{Script=Han}/gu;
const ARTICLES: ReadonlySet<string> = new Set(["a", "an", "the"]);

function pushWords(text: string, out: string[]): void {
  for (const word of tokenize(text)) if (!ARTICLES.has(word)) out.push(word);
}

/**
 * SQuAD's normalize_answer as tokens: NFKC, lower case, punctuation deleted (so "U.S." is "us" and
 * "18,400" is "18400"), the articles a/an/the dropped, each Han character a token of its own.
 * Citation markers ("[1]", "【2】", "[doc#3]") go first: SQuAD never saw them, and they are not
 * part of what a RAG answer says.
 */
export function squadTokens(text: string): string[] {
  const tokens: string[] = [];
  const plain = normalizeText(stripCitationMarkers(text)).replace(PUNCTUATION, "");
  // Han characters are cut out before tokenize sees them: they would only be segmented into
  // words (about 1 µs a character in ICU) to be split into characters again.
  let from = 0;
  HAN_CHARACTER.lastIndex = 0;
  for (let m = HAN_CHARACTER.exec(plain); m !== null; m = HAN_CHARACTER.exec(plain)) {
    if (m.index > from) pushWords(plain.slice(from, m.index), tokens);
    tokens.push(m[0]);
    from = m.index + m[0].length;
  }
  if (from < plain.length) pushWords(from === 0 ? plain : plain.slice(from), tokens);
  return tokens;
}

/** normalize_answer's string: the tokens joined by single spaces. */
export function normalizeAnswer(text: string): string {
  return squadTokens(text).join(" ");
}

/** 1 when prediction and reference normalize to the same tokens, else 0 (SQuAD averages these). */
export function exactMatch(prediction: string, reference: string): 0 | 1 {
  return exactMatchOfTokens(squadTokens(prediction), squadTokens(reference));
}

export function exactMatchOfTokens(
  prediction: readonly string[],
  reference: readonly string[],
): 0 | 1 {
  if (prediction.length !== reference.length) return 0;
  for (let i = 0; i < prediction.length; i++) if (prediction[i] !== reference[i]) return 0;
  return 1;
}

export interface TokenF1 {
  /** Shared tokens (as a multiset) over the prediction's tokens. */
  precision: number;
  /** Shared tokens over the reference's tokens. */
  recall: number;
  f1: number;
}

/** SQuAD's token F1 over squadTokens. */
export function tokenF1(prediction: string, reference: string): TokenF1 {
  return tokenF1OfTokens(squadTokens(prediction), squadTokens(reference));
}

/**
 * Token F1 over the multiset of shared tokens. As in SQuAD v2, when either side has no tokens the
 * score is 1 if both are empty, else 0.
 */
export function tokenF1OfTokens(
  prediction: readonly string[],
  reference: readonly string[],
): TokenF1 {
  if (prediction.length === 0 || reference.length === 0) {
    const same = prediction.length === reference.length ? 1 : 0;
    return { precision: same, recall: same, f1: same };
  }
  const counts = new Map<string, number>();
  for (const token of reference) counts.set(token, (counts.get(token) ?? 0) + 1);
  let shared = 0;
  for (const token of prediction) {
    const left = counts.get(token);
    if (left !== undefined && left > 0) {
      shared++;
      counts.set(token, left - 1);
    }
  }
  if (shared === 0) return { precision: 0, recall: 0, f1: 0 };
  const precision = shared / prediction.length;
  const recall = shared / reference.length;
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}
