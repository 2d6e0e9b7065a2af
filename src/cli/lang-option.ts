import type { MessageLanguage } from "../text/index.js";
import { UsageError } from "./usage-error.js";

// `--lang en|zh`: the language of the sentences a command prints (warnings, why something
// failed), worded from the same codes the web app words (text/user-messages.ts).

export const LANG_OPTION = { type: "string", default: "en" } as const;

export const LANG_HELP =
  "  --lang en|zh          the language of warnings and failure reasons (default: en)";

export function languageOption(value: string | undefined): MessageLanguage {
  if (value === undefined || value === "en" || value === "zh") return value ?? "en";
  throw new UsageError(`--lang: expected en or zh, got "${value}"`);
}
