/**
 * A small least-recently-used map whose entries also expire after an idle time: the server keeps
 * one built-in bot per user (its collection cache is worth keeping while the user is active),
 * and must not keep one for every user it ever saw.
 */
export function lruCache<V>(options: { maxEntries: number; idleMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on use keeps the least recent first.
  const entries = new Map<string, { value: V; usedAt: number }>();

  function sweep(at: number) {
    for (const [key, entry] of entries) {
      if (at - entry.usedAt <= options.idleMs) break;
      entries.delete(key);
    }
  }

  return {
    /** The value for `key`, made by `create` when missing or expired. */
    get(key: string, create: () => V): V {
      const at = now();
      sweep(at);
      const found = entries.get(key);
      const value = found ? found.value : create();
      entries.delete(key);
      entries.set(key, { value, usedAt: at });
      while (entries.size > options.maxEntries) {
        const oldest = entries.keys().next().value as string;
        entries.delete(oldest);
      }
      return value;
    },
    get size() {
      return entries.size;
    },
  };
}
