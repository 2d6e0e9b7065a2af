// The arena list's winner column: the top-rated contestant once the arena is compared.

/** What of an arena the winner is read from (a stored arena has it). */
interface ArenaLike {
  status: string;
  results?: {
    contestants: { name: string }[];
    not_distinguishable: string[][];
  } | null;
}

/** The top-rated contestant, and the runner-up when the set cannot tell the two apart. */
export function winnerOf(arena: ArenaLike): { name: string; level: string | null } | null {
  const r = arena.status === "COMPLETED" ? arena.results : null;
  const [first, second] = r?.contestants ?? [];
  if (!r || !first) return null;
  const level =
    second &&
    r.not_distinguishable.some(
      ([x, y]) =>
        (x === first.name && y === second.name) || (x === second.name && y === first.name),
    )
      ? second.name
      : null;
  return { name: first.name, level };
}
