// Types for verify-signature.mjs, so the TypeScript tests can import it.
export function verifyRagjudgeAlert(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
  nowMs?: number,
): boolean;
