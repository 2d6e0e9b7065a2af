// Public face of text/: tokenization and lexical measures shared by the gate and the judges, and
// JSON text both ways (canonical for hashes, strict for what ragjudge reads), and the one rule for
// where a login may send the browser (the web app imports that file too).

export { canonicalJson } from "./canonical-json.js";
export { DEFAULT_LANDING, safeLandingPath } from "./landing-path.js";
export {
  containsContentToken,
  containsWholeWord,
  contentTokenIndexes,
  foldForSearch,
  surfaceForms,
} from "./contains.js";
export {
  blankCitationMarkers,
  findCitationMarkers,
  type MarkerSpan,
  stripCitationMarkers,
} from "./markers.js";
export { codePointLength, isAscii, normalizeText } from "./normalize.js";
export {
  chineseNumberValue,
  englishNumberValue,
  extractNumberWords,
  type NumberWordMention,
} from "./number-words.js";
export {
  canonicalDecimal,
  evidenceDigitValues,
  evidenceNumberValues,
  evidenceWordValues,
  extractNumbers,
  type NumberKind,
  type NumberMention,
  supportedValues,
} from "./numbers.js";
export { type Sentence, splitSentences } from "./sentences.js";
export {
  describeStrictJsonError,
  MAX_JSON_DEPTH,
  parseStrictJson,
  type StrictJson,
} from "./strict-json.js";
export { CHINESE_STOPWORDS, ENGLISH_STOPWORDS, isStopword } from "./stopwords.js";
export {
  contentForm,
  contentTokenSet,
  contentTokens,
  contentTokensIn,
  forEachContentToken,
  forEachWord,
  hasUnspacedScript,
  stemToken,
  tokenize,
} from "./tokenize.js";
export {
  asCodedMessage,
  type CodedMessage,
  codedMessage,
  type FailureGroupParam,
  failureKindWords,
  MESSAGE_CODES,
  type MessageCode,
  type MessageLanguage,
  type MessagePart,
  messagePart,
  type MessageParams,
  messageTemplate,
  wordMessage,
} from "./user-messages.js";
