import { useEffect, useRef } from "react";

/** What of a key event a labelling shortcut reads (the pages' `KeyPress`). */
export interface ItemKeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: HTMLElement | null;
}

/**
 * The keyboard of one item labelled by a person (a run's result, a queue's item): the item's
 * heading takes the focus when it opens, so a screen reader reads where the person is; Escape in
 * the note goes back to the keys; any other key, held keys aside, goes to `actionFor`, whose
 * action is run in place of the browser's. `actionFor` should be stable (a `useCallback`).
 */
export function useItemKeys(actionFor: (press: ItemKeyPress) => (() => void) | null) {
  const heading = useRef<HTMLHeadingElement>(null);
  const note = useRef<HTMLTextAreaElement>(null);

  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (event.key === "Escape" && target === note.current) {
        event.preventDefault();
        heading.current?.focus();
        return;
      }
      if (event.repeat) return;
      const action = actionFor({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        target,
      });
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [actionFor]);

  return { heading, note };
}
