import { useEffect, useRef } from "react";

/** The one option to choose for a person who has only one and has chosen nothing yet. */
export function loneChoice(ids: readonly string[], chosen: string): string | undefined {
  return ids.length === 1 && chosen === "" ? ids[0] : undefined;
}

/**
 * Chooses a lone collection or question set once its list has loaded: a person with one has
 * nothing to pick. Only once, so going back to "Choose…" is left as the person set it.
 */
export function useLoneChoice(
  ids: readonly string[] | undefined,
  chosen: string,
  choose: (id: string) => void,
) {
  const done = useRef(false);
  useEffect(() => {
    if (done.current || ids === undefined) return;
    done.current = true;
    const only = loneChoice(ids, chosen);
    if (only !== undefined) choose(only);
  }, [ids, chosen, choose]);
}
