import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from "react";
import { type CodedMessage, wordMessage } from "../../../src/text/user-messages";
import type { components } from "../api/schema";
import { en, type MessageKey, zh } from "./strings";

export type Language = "en" | "zh";
const TABLES: Record<Language, Record<MessageKey, string>> = { en, zh };
const STORAGE_KEY = "ragjudge.language";

/** The browser's first preferred language decides, unless the person chose one here before. */
export function initialLanguage(preferred: readonly string[], stored: string | null): Language {
  if (stored === "en" || stored === "zh") return stored;
  const first = preferred[0]?.toLowerCase() ?? "en";
  return first.startsWith("zh") ? "zh" : "en";
}

export function format(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

interface I18n {
  language: Language;
  setLanguage: (language: Language) => void;
  t: (key: MessageKey, values?: Record<string, string | number>) => string;
  /** A sentence the server sent as a code (text/user-messages.ts), in this language. */
  say: (
    message:
      Pick<CodedMessage, "code" | "params" | "message"> | components["schemas"]["CodedMessage"],
  ) => string;
}

const I18nContext = createContext<I18n | undefined>(undefined);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(() =>
    initialLanguage(navigator.languages ?? [navigator.language], localStorage.getItem(STORAGE_KEY)),
  );
  useEffect(() => {
    document.documentElement.lang = language === "zh" ? "zh-CN" : "en";
  }, [language]);
  const setLanguage = useCallback((next: Language) => {
    localStorage.setItem(STORAGE_KEY, next);
    setLanguageState(next);
  }, []);
  const value = useMemo<I18n>(
    () => ({
      language,
      setLanguage,
      t: (key, values) => format(TABLES[language][key], values),
      // The document shows a clause's own params loosely (`unknown`); the server words them as
      // text/user-messages.ts MessageParams.
      say: (message) =>
        wordMessage(message as Pick<CodedMessage, "code" | "params" | "message">, language),
    }),
    [language, setLanguage],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const context = useContext(I18nContext);
  if (!context) throw new Error("useI18n outside I18nProvider");
  return context;
}
