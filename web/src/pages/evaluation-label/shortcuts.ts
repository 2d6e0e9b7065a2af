// The labelling view's keyboard: one key per action, so a person can label a run without the
// mouse. Keys never act while the person types (the note field), nor with a modifier held, so the
// browser's own shortcuts keep working.

export type LabelScale = "1-10" | "1-5" | "pass_fail";

export type ShortcutAction =
  | { kind: "score"; score: number }
  | { kind: "pass"; passed: boolean }
  | { kind: "save" }
  | { kind: "next" }
  | { kind: "previous" }
  | { kind: "skip" }
  | { kind: "help" };

/** What of a key event decides its action (a KeyboardEvent has all of it). */
export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** The focused element: its tag (any case), input type, and whether it is editable text. */
  target?: { tagName?: string; type?: string; isContentEditable?: boolean } | null;
}

// Input types a person types into; a radio or checkbox is not one (digits still score there).
const TEXT_INPUTS = new Set([
  "",
  "text",
  "search",
  "number",
  "email",
  "url",
  "tel",
  "password",
  "date",
  "datetime-local",
  "month",
  "time",
  "week",
]);

/** True when keys typed now go into a field (the note, a select), not to the shortcuts. */
export function isTyping(target: KeyPress["target"]): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = (target.tagName ?? "").toLowerCase();
  if (tag === "textarea" || tag === "select") return true;
  return tag === "input" && TEXT_INPUTS.has((target.type ?? "").toLowerCase());
}

/** The score a digit key gives on `scale`: 0 stands for 10 on 1-10; null off the scale. */
export function scoreOfDigit(key: string, scale: LabelScale): number | null {
  if (scale === "pass_fail" || !/^[0-9]$/.test(key)) return null;
  const score = key === "0" ? 10 : Number(key);
  const max = scale === "1-10" ? 10 : 5;
  return score <= max ? score : null;
}

/** The action a key press asks for on `scale`, or null when the key is not a shortcut here. */
export function shortcutFor(press: KeyPress, scale: LabelScale): ShortcutAction | null {
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  if (isTyping(press.target)) return null;
  const tag = (press.target?.tagName ?? "").toLowerCase();
  const type = (press.target?.type ?? "").toLowerCase();
  const key = press.key;
  // A focused button or link does its own thing on Enter; a focused radio group moves with arrows.
  if (key === "Enter" && (tag === "button" || tag === "a" || tag === "summary")) return null;
  if (key.startsWith("Arrow") && tag === "input" && type === "radio") return null;

  const score = scoreOfDigit(key, scale);
  if (score !== null) return { kind: "score", score };
  switch (key.length === 1 ? key.toLowerCase() : key) {
    case "p":
      return scale === "pass_fail" ? { kind: "pass", passed: true } : null;
    case "f":
      return scale === "pass_fail" ? { kind: "pass", passed: false } : null;
    case "Enter":
      return { kind: "save" };
    case "n":
    case "ArrowRight":
      return { kind: "next" };
    case "b":
    case "ArrowLeft":
      return { kind: "previous" };
    case "s":
      return { kind: "skip" };
    case "?":
      return { kind: "help" };
    default:
      return null;
  }
}
