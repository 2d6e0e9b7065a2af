import { forEachWord, isStopword, stemToken } from "../../text/index.js";

// BM25's terms: the words of text/ (ICU segmentation on Han, kana, Hangul and Thai runs only),
// less stopwords, plurals folded. Unlike text/'s contentTokens, bare numbers stay: "2016" and
// "1891" are what people search for. Chunks store these tokens at ingest and queries go through
// the same function, so changing it means re-ingesting.

/** Retrieval terms of `text`, in order, repeats kept. */
export function retrievalTokens(text: string): string[] {
  const tokens: string[] = [];
  forEachWord(text, (word) => {
    if (isStopword(word)) return;
    const stem = stemToken(word);
    // Single Latin letters and digits ("a", "x", "3") match almost everything.
    if (stem.length === 1 && stem.charCodeAt(0) < 0x80) return;
    if (stem !== word && isStopword(stem)) return;
    tokens.push(stem);
  });
  return tokens;
}

/** Distinct retrieval terms of `text`, in first-seen order. */
export function distinctRetrievalTokens(text: string): string[] {
  return [...new Set(retrievalTokens(text))];
}
