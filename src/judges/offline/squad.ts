// SQuAD's answer metrics: exact match and token F1.
//
// Text without CJK is scored exactly as the official SQuAD v2.0 evaluation script does
// (`normalize_answer`, `get_tokens`, `compute_exact`, `compute_f1`): lower case, ASCII punctuation
// (Python's string.punctuation) deleted, so "Italo-Normans" is "italonormans"; other symbols such
// as "×" or "–" kept; the articles a/an/the dropped where they stand as whole words after that
// deletion; tokens split on Python's whitespace. No Unicode normalization: the script has none.
//
// Chinese is written without spaces, so whitespace tokens would make a whole sentence one token.
// Text written mainly in Han, kana, Hangul or Thai follows MLQA's official script instead (its
// `mixed_segmentation` for zh, also used by CMRC 2018 and DRCD): every Han character is a token,
// other runs stay words, Unicode punctuation is deleted. Character tokens do not depend on a word
// segmenter, whose cuts change with context ("首都是北京" vs "北京是中国的首都"), so the same words in
// prediction and reference always meet; and scores stay comparable with published Chinese QA
// results.
//
// The official path reads the text exactly as given, citation markers included: "[1]" is the token
// "1" there, as in the script (issue 26 made all 705 questions of a SQuAD v2 parity run equal).
// The mixed path, which has no official script to match, leaves markers out.

import {
  hasUnspacedScript,
  normalizeText,
  stripCitationMarkers,
  tokenize,
} from "../../text/index.js";

/** Python's string.punctuation: the 32 ASCII punctuation characters SQuAD deletes. */
const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
/**
 * `\b(a|an|the)\b` as Python's `re` reads it on str: a word boundary is between a character of
 * `\w` (Unicode letters and numbers, and "_") and one outside it. JavaScript's `\b` is ASCII only.
 */
const ARTICLE = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
/** What Python's str.split() splits on (it includes \x1c-\x1f and \x85, and not \ufeff). */
const PYTHON_WHITESPACE =
  // eslint-disable-next-line no-control-regex -- Python counts the separators \x1c-\x1f as spaces.
  /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** MLQA's PUNCT: Unicode punctuation, plus the symbols in Python's string.punctuation. */
const PUNCTUATION = /[\p{P}$+<=>^`|~]/gu;
const HAN_CHARACTER = /\p{Script=Han}/gu;
const ARTICLES: ReadonlySet<string> = new Set(["a", "an", "the"]);

/** The official script's normalize_answer, then get_tokens' split. */
function officialTokens(text: string): string[] {
  const normalized = text.toLowerCase().replace(ASCII_PUNCTUATION, "").replace(ARTICLE, " ");
  return normalized.split(PYTHON_WHITESPACE).filter((token) => token !== "");
}

function pushWords(text: string, out: string[]): void {
  for (const word of tokenize(text)) if (!ARTICLES.has(word)) out.push(word);
}

/** MLQA's mixed segmentation: NFKC, lower case, Unicode punctuation deleted, Han characters apart. */
function mixedTokens(text: string): string[] {
  const tokens: string[] = [];
  const plain = normalizeText(text).replace(PUNCTUATION, "");
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

const UNSPACED_CHARACTER =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/gu;
const SPACED_WORD = /\S*[\p{L}\p{N}]\S*/gu;

/**
 * Whether a text is written mainly in a script without spaces: at least as many Han, kana, Hangul
 * or Thai characters as other words. An English answer that quotes a name in Chinese ("Dadu
 * (大都)") stays English, and is scored exactly as the official script scores it.
 */
export function isMainlyUnspaced(text: string): boolean {
  if (!hasUnspacedScript(text)) return false;
  const unspaced = text.match(UNSPACED_CHARACTER)?.length ?? 0;
  const words = text.replace(UNSPACED_CHARACTER, " ").match(SPACED_WORD)?.length ?? 0;
  return unspaced >= words;
}

/**
 * SQuAD's tokens of an answer: the official v2.0 script's `normalize_answer` then whitespace
 * split, on the text as given, for text not mainly in an unspaced script; MLQA's mixed
 * segmentation, citation markers removed, for text that is (see the file comment).
 */
export function squadTokens(text: string): string[] {
  if (!isMainlyUnspaced(text)) return officialTokens(text);
  return mixedTokens(stripCitationMarkers(text));
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

/**
 * The official script's per-question scores over several references: exact match and F1 each
 * take their maximum over the references separately (`max(compute_f1(a, pred) for a in gold)`).
 * References that normalize to nothing are dropped, and a question left without any scores
 * against the empty answer, as the script does for SQuAD v2's unanswerable questions.
 */
export function squadScores(
  prediction: string,
  references: readonly string[],
): { exact_match: 0 | 1; f1: number } {
  const predicted = squadTokens(prediction);
  const kept = references.map(squadTokens).filter((tokens) => tokens.length > 0);
  const golds = kept.length > 0 ? kept : [[]];
  let exact: 0 | 1 = 0;
  let f1 = 0;
  for (const gold of golds) {
    if (exactMatchOfTokens(predicted, gold) === 1) exact = 1;
    f1 = Math.max(f1, tokenF1OfTokens(predicted, gold).f1);
  }
  return { exact_match: exact, f1 };
}
