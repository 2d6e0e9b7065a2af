/**
 * Group commit: writes asked for in the same turn of the event loop go together, and a write asked
 * for while an earlier batch is being written waits and goes with the others in the next batch. So
 * a busy database sees one statement for many items, and an idle one sees each item after the
 * current turn (setImmediate, no timer). The turn matters for PGlite: a statement runs on this
 * thread and ends before the next socket event is handled, so without it nothing would ever wait.
 * A failed batch is retried item by item, so one bad item fails alone.
 */
export function groupCommit<I, O>(
  write: (items: I[]) => Promise<O[]>,
  options: { maxBatch?: number; lanes?: number } = {},
): (item: I) => Promise<O> {
  const maxBatch = options.maxBatch ?? 64;
  const lanes = options.lanes ?? 1;
  const queue: { item: I; resolve(value: O): void; reject(error: unknown): void }[] = [];
  let running = 0;
  let starting = false;

  /** Starts a lane after this turn, so the writes asked for during it share its first batch. */
  function startLane(): void {
    if (starting || running >= lanes) return;
    starting = true;
    setImmediate(() => {
      starting = false;
      if (queue.length > 0 && running < lanes) void drain();
    });
  }

  async function writeAlone(entry: (typeof queue)[number]): Promise<void> {
    try {
      const [out] = await write([entry.item]);
      entry.resolve(out as O);
    } catch (error) {
      entry.reject(error);
    }
  }

  async function drain(): Promise<void> {
    running += 1;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, maxBatch);
        if (batch.length === 1) {
          await writeAlone(batch[0]!);
          continue;
        }
        let outs: O[];
        try {
          outs = await write(batch.map((entry) => entry.item));
        } catch {
          for (const entry of batch) await writeAlone(entry);
          continue;
        }
        batch.forEach((entry, i) => entry.resolve(outs[i] as O));
      }
    } finally {
      running -= 1;
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      startLane();
    });
}
