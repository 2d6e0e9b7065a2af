// In-memory indexes are kept per database handle and collection, tagged with the version they
// were built from; a query that sees another version rebuilds, and the build is handed the index
// of the earlier version to start from. Concurrent queries share one build. A few collections per
// handle are kept, least recently used first out.

const MAX_ENTRIES = 16;

interface Entry<T> {
  version: string;
  value: Promise<T>;
}

export class VersionedIndexCache<T> {
  private readonly byOwner = new WeakMap<object, Map<string, Entry<T>>>();

  get(
    owner: object,
    key: string,
    version: string,
    build: (previous: T | undefined) => Promise<T>,
  ): Promise<T> {
    let entries = this.byOwner.get(owner);
    if (!entries) {
      entries = new Map();
      this.byOwner.set(owner, entries);
    }
    const hit = entries.get(key);
    if (hit && hit.version === version) {
      entries.delete(key);
      entries.set(key, hit);
      return hit.value;
    }
    // The earlier version's index, unless its build failed.
    const previous = hit ? hit.value.catch(() => undefined) : Promise.resolve(undefined);
    const value = previous.then(build);
    const entry = { version, value };
    entries.delete(key);
    entries.set(key, entry);
    // A failed build is forgotten, so the next query tries again.
    value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    while (entries.size > MAX_ENTRIES) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
    return value;
  }

  /** Drops every index of `owner` (tests, or after bulk changes made outside the repositories). */
  clear(owner: object): void {
    this.byOwner.delete(owner);
  }
}
