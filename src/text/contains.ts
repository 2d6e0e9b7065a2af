// Whether a text contains a content token, found with the native substring search instead of by
// tokenizing the text: the gate asks a few dozen such questions of each evidence chunk, and
// scanning every chunk into a token set costs several times more. The answer is the one
// contentTokenSet(text).has(token) would give, except that tokens in scripts written without
// spaces (Han, kana, Hangul, Thai) match as substrings, since their segmentation depends on context.

import { isAscii } from "./normalize.js";
import { contentForm, hasUnspacedScript } from "./tokenize.js";

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/** Whether the UTF-16 unit at `index` continues a word (so a match there is not a whole word). */
function continuesWord(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return false;
  const unit = text.charCodeAt(index);
  if (unit < 0x80)
    return (unit >= 97 && unit <= 122) || (unit >= 48 && unit <= 57) || (unit >= 65 && unit <= 90);
  return continuesWordBeyondAscii(text[index] as string);
}

// Apart, so that the ASCII test above stays small enough to be inlined where it is asked (for
// every occurrence of every token in every hit).
function continuesWordBeyondAscii(ch: string): boolean {
  // Han next to Latin is a word break for ICU too ("澜汀metro").
  return WORD_CHAR.test(ch) && !hasUnspacedScript(ch);
}

/** Whether `word` occurs in `text` with no word character on either side. */
export function containsWholeWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (!continuesWord(text, at - 1) && !continuesWord(text, at + word.length)) return true;
  }
  return false;
}

// A memo of a pure function, cleared when full (no order to evict in): about 11 calls per answer
// in bench/gate-pure.ts, 0.45 µs each when computed, against 0.01 µs for the lookup.
const surfaceCache = new Map<string, string[]>();
const MAX_CACHED_SURFACES = 20_000;

/** The lower-cased words whose content form is `token`: itself and its plurals. */
export function surfaceForms(token: string): string[] {
  let forms = surfaceCache.get(token);
  if (forms === undefined) {
    const candidates = [token, `${token}s`, `${token}es`];
    if (token.endsWith("y")) candidates.push(`${token.slice(0, -1)}ies`);
    forms = candidates.filter((word) => contentForm(word) === token);
    if (surfaceCache.size >= MAX_CACHED_SURFACES) surfaceCache.clear();
    surfaceCache.set(token, forms);
  }
  return forms;
}

/**
 * Whether `haystack` — text already NFKC-folded and lower-cased, see foldForSearch — contains a
 * word whose content form is `token`.
 */
export function containsContentToken(haystack: string, token: string): boolean {
  if (token.charCodeAt(0) >= 0x0e00 && hasUnspacedScript(token)) return haystack.includes(token);
  // A content token is its own first surface form (contentForm(t) === t), and most other forms
  // start with it ("tonne", "tonnes"): each occurrence of the token is checked for both where it
  // stands, instead of searching the text again for every form.
  let forms: string[] | undefined;
  for (let at = haystack.indexOf(token); at >= 0; at = haystack.indexOf(token, at + 1)) {
    if (continuesWord(haystack, at - 1)) continue;
    if (!continuesWord(haystack, at + token.length)) return true;
    forms ??= surfaceForms(token);
    for (let i = 1; i < forms.length; i++) {
      const form = forms[i] as string;
      if (haystack.startsWith(form, at) && !continuesWord(haystack, at + form.length)) return true;
    }
  }
  // A form that does not start with the token ("cities" for "city") is searched for itself.
  forms ??= surfaceForms(token);
  for (let i = 1; i < forms.length; i++) {
    const form = forms[i] as string;
    if (!form.startsWith(token) && containsWholeWord(haystack, form)) return true;
  }
  return false;
}

/**
 * Where `haystack` (folded, see foldForSearch) holds a word whose content form is `token`: the
 * start of every such word, ascending. containsContentToken answers whether there is one; this
 * says where, for measures that ask what stands near what.
 */
export function contentTokenIndexes(haystack: string, token: string): number[] {
  const found = new Set<number>();
  if (token.charCodeAt(0) >= 0x0e00 && hasUnspacedScript(token)) {
    for (let at = haystack.indexOf(token); at >= 0; at = haystack.indexOf(token, at + 1))
      found.add(at);
    return [...found];
  }
  for (const form of surfaceForms(token)) {
    for (let at = haystack.indexOf(form); at >= 0; at = haystack.indexOf(form, at + 1)) {
      if (!continuesWord(haystack, at - 1) && !continuesWord(haystack, at + form.length))
        found.add(at);
    }
  }
  return [...found].sort((a, b) => a - b);
}

/** The form of a text containsContentToken searches: NFKC, lower case. */
export function foldForSearch(text: string): string {
  return isAscii(text) ? text.toLowerCase() : text.normalize("NFKC").toLowerCase();
}
