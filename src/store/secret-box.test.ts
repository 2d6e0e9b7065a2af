import { randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  isSealedSecret,
  openSecret,
  SecretKey,
  SecretKeyFormatError,
  sealSecret,
  StoredSecretError,
} from "./secret-box.js";

const raw = randomBytes(32);
const key = SecretKey.fromText(raw.toString("base64"));
const secret = "sk-bot-Grüße-0123456789";
const here = "bots.secret:user-1:bot-1";

describe("SecretKey", () => {
  it("reads 32 bytes as base64, base64url or hex, as the same key", () => {
    for (const text of [
      raw.toString("base64"),
      raw.toString("base64url"),
      raw.toString("hex"),
      ` ${raw.toString("hex").toUpperCase()}\n`,
    ]) {
      expect(SecretKey.fromText(text).id, text).toBe(key.id);
    }
  });

  it("refuses a key of another length or alphabet without repeating it", () => {
    for (const [text, detail] of [
      [randomBytes(16).toString("base64"), /it is 16 bytes/],
      ["correct horse battery staple!", /neither base64 nor hex/],
      [randomBytes(33).toString("hex"), /it is \d+ bytes/],
    ] as const) {
      const error = (() => {
        try {
          SecretKey.fromText(text);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(SecretKeyFormatError);
      expect((error as Error).message).toMatch(/^RAGJUDGE_SECRET_KEY: expected 32 random bytes/);
      expect((error as Error).message).toMatch(detail);
      expect((error as Error).message).not.toContain(text.trim());
    }
  });

  it("never shows its bytes when serialized, printed or inspected", () => {
    const shown = [JSON.stringify({ key }), String(key), `${key}`, inspect({ key })].join(" ");
    expect(shown).not.toContain(raw.toString("base64"));
    expect(shown).not.toContain(raw.toString("hex"));
    expect(shown).toContain("[secret key]");
  });
});

describe("sealSecret and openSecret", () => {
  it("round-trip a secret; the sealed text holds neither it nor a fixed form of it", () => {
    const sealed = sealSecret(key, secret, here);
    expect(isSealedSecret(sealed)).toBe(true);
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(Buffer.from(secret).toString("base64url").slice(0, 8));
    // A fresh IV each time: the same secret never seals to the same text.
    expect(sealSecret(key, secret, here)).not.toBe(sealed);
    expect(openSecret(sealed, key, here)).toBe(secret);
  });

  it("reads a plaintext secret stored before there was a key as it is", () => {
    expect(isSealedSecret(secret)).toBe(false);
    expect(openSecret(secret, key, here)).toBe(secret);
    expect(openSecret(secret, undefined, here)).toBe(secret);
  });

  it("says why a sealed secret cannot be opened: no key, another key, another row, tampering", () => {
    const sealed = sealSecret(key, secret, here);
    const other = SecretKey.fromText(randomBytes(32).toString("hex"));
    const [prefix, id, iv, body, tag] = sealed.split(".") as [
      string,
      string,
      string,
      string,
      string,
    ];
    // The first character carries six bits of the first byte (the last may carry padding bits).
    const flipped = `${body.startsWith("A") ? "B" : "A"}${body.slice(1)}`;
    const cases: Array<[() => string, RegExp]> = [
      [() => openSecret(sealed, undefined, here), /stored encrypted.*no RAGJUDGE_SECRET_KEY/],
      [() => openSecret(sealed, other, here), /under another RAGJUDGE_SECRET_KEY/],
      [() => openSecret(sealed, key, "bots.secret:user-2:bot-1"), /does not open with this key/],
      [
        () => openSecret([prefix, id, iv, flipped, tag].join("."), key, here),
        /does not open with this key/,
      ],
    ];
    for (const [open, message] of cases) {
      expect(open).toThrow(StoredSecretError);
      expect(open).toThrow(message);
    }
  });
});
