import { type Dispatch, type SetStateAction, useCallback, useEffect, useRef } from "react";

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

/**
 * `useLoneChoice` for one field of a form held in state: the id of the lone item (collection,
 * question set) is written to `field`, which must not change between renders.
 */
export function useLoneFormChoice<F extends Record<K, string>, K extends keyof F>(
  items: readonly { id: string }[] | undefined,
  form: F,
  field: K,
  setForm: Dispatch<SetStateAction<F>>,
) {
  const choose = useCallback(
    (id: string) => setForm((f) => ({ ...f, [field]: id })),
    [setForm, field],
  );
  useLoneChoice(
    items?.map((item) => item.id),
    form[field],
    choose,
  );
}
