import { isTyping, type KeyPress } from "../evaluation-label/shortcuts";

// The compare table's keyboard: j and k move between question rows (as in a mail reader), never
// while a person types in a field or holds a modifier (the browser's own shortcuts keep working).

/** The row j or k moves to from `current` (-1: none yet) among `count`; null when not a move. */
export function rowAfterKey(press: KeyPress, current: number, count: number): number | null {
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  if (isTyping(press.target) || count === 0) return null;
  if (press.key === "j") return Math.min(current + 1, count - 1);
  if (press.key === "k") return current < 0 ? 0 : Math.max(current - 1, 0);
  return null;
}
