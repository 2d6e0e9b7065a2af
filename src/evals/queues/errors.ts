// Typed errors of annotation queues; server/errors.ts maps each to its HTTP answer once.

/** A queue, item or source the caller's workspace does not have (404). */
export class QueueNotFoundError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "not_found";
  constructor(
    readonly what: string,
    readonly id: string,
  ) {
    super(`No such ${what}: ${id}.`);
    this.name = "QueueNotFoundError";
  }
}

/** A request that does not fit: the field at fault and why (400). */
export class QueueRequestError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = "QueueRequestError";
  }
}

/** Every slot of the item is taken by other reviewers' labels or locks (409). */
export class QueueSlotTakenError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "conflict";
  constructor(readonly itemId: string) {
    super(
      `This item already has the labels it needs from other reviewers (${itemId}); ask for the next one.`,
    );
    this.name = "QueueSlotTakenError";
  }
}
