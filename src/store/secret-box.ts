// Users' bot secrets at rest (issue 22 §15): AES-256-GCM under a key the operator provides
// (RAGJUDGE_SECRET_KEY), so a copy of the database (a backup, a replica, a dump) does not hand
// out every user's credentials. The secret must be sent as given, so it is encrypted, not hashed.

import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { inspect } from "node:util";

/** The environment variable the operator sets; named in every message about the key. */
export const SECRET_KEY_ENV = "RAGJUDGE_SECRET_KEY";

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** `rjsec1.<key id>.<iv>.<ciphertext>.<tag>`, base64url parts; version 1 is AES-256-GCM. */
const SEALED = /^rjsec1\.([0-9a-f]{8})\.([\w-]{16})\.([\w-]*)\.([\w-]{22})$/;

/** A malformed RAGJUDGE_SECRET_KEY; the message never repeats the value. */
export class SecretKeyFormatError extends Error {
  override readonly name = "SecretKeyFormatError";
  /** What the key should be, and what is wrong with this one. */
  readonly expected: string;
  constructor(detail: string) {
    const expected =
      `${KEY_BYTES} random bytes as base64 or 64 hex digits ` +
      `(make one with \`openssl rand -base64 32\`); ${detail}`;
    super(`${SECRET_KEY_ENV}: expected ${expected}`);
    this.expected = expected;
  }
}

/**
 * The operator's key. Its bytes are private: JSON, `console.log` and string conversion show
 * `[secret key]`, so a configuration object holding it can be logged or serialized safely.
 */
export class SecretKey {
  readonly #bytes: Buffer;
  /** 8 hex digits of the key's sha256, stored with each secret: tells "another key" apart. */
  readonly id: string;

  private constructor(bytes: Buffer) {
    this.#bytes = bytes;
    this.id = createHash("sha256").update(bytes).digest("hex").slice(0, 8);
  }

  /** Reads the key as the operator writes it: base64 (or base64url) or hex, 32 bytes. */
  static fromText(text: string): SecretKey {
    const trimmed = text.trim();
    if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return new SecretKey(Buffer.from(trimmed, "hex"));
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
      throw new SecretKeyFormatError("it holds characters that are neither base64 nor hex");
    }
    const bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (bytes.length !== KEY_BYTES) throw new SecretKeyFormatError(`it is ${bytes.length} bytes`);
    return new SecretKey(bytes);
  }

  /** For sealSecret and openSecret only. */
  bytes(): Buffer {
    return this.#bytes;
  }

  toJSON(): string {
    return "[secret key]";
  }
  toString(): string {
    return "[secret key]";
  }
  [inspect.custom](): string {
    return "SecretKey [secret key]";
  }
}

/** Whether a stored value is a sealed secret (else it is a plaintext one, from before a key). */
export function isSealedSecret(stored: string): boolean {
  return SEALED.test(stored);
}

/**
 * Encrypts a secret for one place: `context` (e.g. the bot's owner and id) is authenticated with
 * it, so a sealed value copied into another row does not open there.
 */
export function sealSecret(key: SecretKey, secret: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key.bytes(), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, "utf8"));
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  const parts = [iv, sealed, cipher.getAuthTag()].map((part) => part.toString("base64url"));
  return ["rjsec1", key.id, ...parts].join(".");
}

/** A stored secret this process cannot read; the message says why and never holds the secret. */
export class StoredSecretError extends Error {
  override readonly name = "StoredSecretError";
}

/**
 * The secret as it was given: a sealed value opened with the key, or a plaintext value stored
 * before there was a key, as it is.
 */
export function openSecret(
  stored: string,
  key: SecretKey | undefined,
  context: string,
  /** Whose secret, in the messages, and what to do when another key sealed it. */
  owner: { what: string; redo: string } = {
    what: "the bot's secret",
    redo: "register the bot's secret again",
  },
): string {
  const match = SEALED.exec(stored);
  if (!match) return stored;
  const [, keyId, iv, sealed, tag] = match as unknown as [string, string, string, string, string];
  if (!key) {
    throw new StoredSecretError(
      `${owner.what} is stored encrypted and this process has no ${SECRET_KEY_ENV}`,
    );
  }
  if (keyId !== key.id) {
    throw new StoredSecretError(
      `${owner.what} was stored under another ${SECRET_KEY_ENV} (key ${keyId}, this process has ${key.id}); ${owner.redo}`,
    );
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.bytes(), Buffer.from(iv, "base64url"), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed, "base64url")),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    throw new StoredSecretError(
      `${owner.what} does not open with this key: it was changed or copied from another row`,
    );
  }
}
