// The same normalization as the server's duplicate check (src/evals/questions/duplicates.ts), so a
// row the table flags as a repeat is one the server would refuse: NFKC, lower-case, punctuation
// dropped, whitespace collapsed, spaces next to Chinese or Japanese characters removed.
const PUNCTUATION = /\p{P}+/gu;
const WHITESPACE = /\s+/gu;
const SPACE_BY_CJK =
  /(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]) | (?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu;

export function questionKey(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(PUNCTUATION, " ")
    .replace(WHITESPACE, " ")
    .trim()
    .replace(SPACE_BY_CJK, "");
}
