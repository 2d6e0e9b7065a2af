// The run list's order: a person's own runs first, as listed (newest first); then the runs an
// arena made for its contestants (answers files, bots run for it), grouped under their arena,
// so they never read as ordinary runs.

interface RunLike {
  arena?: { id: string; name: string; contestant: string } | null;
}

export interface RunGroups<T> {
  own: T[];
  arenas: { id: string; name: string; runs: T[] }[];
}

export function groupRuns<T extends RunLike>(runs: readonly T[]): RunGroups<T> {
  const own: T[] = [];
  const arenas = new Map<string, { id: string; name: string; runs: T[] }>();
  for (const run of runs) {
    if (!run.arena) {
      own.push(run);
      continue;
    }
    const group = arenas.get(run.arena.id) ?? { id: run.arena.id, name: run.arena.name, runs: [] };
    group.runs.push(run);
    arenas.set(run.arena.id, group);
  }
  return { own, arenas: [...arenas.values()] };
}
