/**
 * Maps `source` through `work` with at most `concurrency` in flight, yielding results in input
 * order. Reading is paced by the pool, so a huge file is never loaded whole.
 */
export async function* mapOrdered<T, R>(
  source: AsyncIterable<T>,
  concurrency: number,
  work: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const inFlight: Promise<R>[] = [];
  for await (const item of source) {
    inFlight.push(work(item));
    if (inFlight.length >= concurrency) yield await (inFlight.shift() as Promise<R>);
  }
  while (inFlight.length > 0) yield await (inFlight.shift() as Promise<R>);
}
