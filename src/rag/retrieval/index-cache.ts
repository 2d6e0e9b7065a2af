// In-memory indexes are kept per database handle and collection, tagged with the version they
// were built from; a query that sees another version rebuilds, and the build is handed the index
// of the earlier version to start from. Concurrent queries share one build (lru-cache's fetch),
// a failed build is forgotten so the next query tries again, and a few collections per handle
// are kept, least recently used first out.

import { LRUCache } from "lru-cache";

const MAX_ENTRIES = 16;

interface Entry<T> {
  version: string;
  value: T;
}

interface Wanted<T> {
  version: string;
  build: (previous: T | undefined) => Promise<T>;
}

export class VersionedIndexCache<T> {
  private readonly byOwner = new WeakMap<object, LRUCache<string, Entry<T>, Wanted<T>>>();

  async get(
    owner: object,
    key: string,
    version: string,
    build: (previous: T | undefined) => Promise<T>,
  ): Promise<T> {
    let entries = this.byOwner.get(owner);
    if (!entries) {
      entries = new LRUCache<string, Entry<T>, Wanted<T>>({
        max: MAX_ENTRIES,
        // A build whose entry is pushed out still resolves for the queries waiting on it.
        ignoreFetchAbort: true,
        fetchMethod: async (_key, previous, { context }) => ({
          version: context.version,
          value: await context.build(previous?.value),
        }),
      });
      this.byOwner.set(owner, entries);
    }
    const context = { version, build };
    // A query joins a build in flight, whatever its version; one for another version than its
    // own is followed by a build of its own version (joined in turn by queries wanting it).
    let entry = await entries.fetch(key, { context });
    for (let tries = 0; entry?.version !== version && tries < 2; tries++)
      entry = await entries.fetch(key, { context, forceRefresh: true });
    // Queries wanting two versions at once kept taking each other's build: this one builds its own.
    if (entry?.version !== version) return build(entry?.value);
    return entry.value;
  }

  /** Drops every index of `owner` (tests, or after bulk changes made outside the repositories). */
  clear(owner: object): void {
    this.byOwner.delete(owner);
  }
}
