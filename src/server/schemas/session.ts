import { z } from "zod";
import { responseSchema } from "../components.js";
import { Id, Time } from "./common.js";

// The session: who is logged in, in which workspace.

export const SessionLoginSchema = z.object({
  token: z.string().trim().min(1).max(1_000).describe("an API token (see `ragjudge token`)"),
});

export const SessionSchema = responseSchema(
  "Session",
  z.object({
    user: z.object({ id: Id, name: z.string() }),
    via: z.enum(["bearer", "cookie"]),
    expires_at: Time.nullable().describe("when the cookie's session ends; null for a bearer token"),
    workspace: z
      .object({
        id: Id,
        name: z.string(),
        personal: z.boolean(),
        role: z.enum(["owner", "editor", "annotator", "viewer"]),
      })
      .describe("the workspace this request acts in, and the caller's role there"),
  }),
);

export const SessionCreatedSchema = responseSchema(
  "SessionCreated",
  z.object({
    user: z.object({ id: Id, name: z.string() }),
    expires_at: Time,
  }),
);
