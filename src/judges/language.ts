/** The languages judge prompts are written in. */
export type PromptLanguage = "en" | "zh";
/** "auto" picks by the question's script. */
export type LanguageSetting = PromptLanguage | "auto";

const HAN = /\p{Script=Han}/u;
const KANA_OR_HANGUL = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * "zh" when the text contains Chinese characters (and no Japanese kana or Korean hangul, which get
 * the English prompt rather than a Chinese one), otherwise "en".
 */
export function detectLanguage(text: string): PromptLanguage {
  return HAN.test(text) && !KANA_OR_HANGUL.test(text) ? "zh" : "en";
}

export function promptLanguage(
  setting: LanguageSetting | undefined,
  question: string,
): PromptLanguage {
  return setting === undefined || setting === "auto" ? detectLanguage(question) : setting;
}
