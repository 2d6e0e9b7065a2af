// Type-level test, checked by `tsc -p .` (never run): a handler that answers with a body or a
// status its route does not declare does not compile (server/route.ts `Answer`). Each
// `@ts-expect-error` fails the type check if the line below it compiles.
import { z } from "zod";
import { errorJson } from "../src/server/http.js";
import { declaredBody, defineRoute, type HandlerOf } from "../src/server/route.js";
import { IdParams } from "../src/server/routes/params.js";
import { ErrorSchema } from "../src/server/schemas/index.js";

const ThingSchema = z.object({
  id: z.string(),
  count: z.number().int(),
  tags: z.array(z.string()),
});

export const getThing = defineRoute({
  method: "get",
  path: "/api/v1/things/:id",
  tags: ["things"],
  summary: "A thing",
  params: IdParams,
  resource: "thing",
  responses: {
    200: { description: "The thing", schema: ThingSchema },
    404: { description: "No such thing", schema: ErrorSchema },
  },
});

type Handler = HandlerOf<typeof getThing>;

// The declared shapes compile: a readonly array is fine (JSON has no such mark).
export const right: Handler = async (c, { params }) =>
  params.id === "x"
    ? errorJson(c, 404, "not_found", "No such thing: x.")
    : c.json({ id: params.id, count: 1, tags: ["a"] as readonly string[] }, 200);

// @ts-expect-error a field of the wrong type
export const wrongType: Handler = async (c) => c.json({ id: "a", count: "one", tags: [] }, 200);

// @ts-expect-error a missing field
export const missingField: Handler = async (c) => c.json({ id: "a", tags: [] }, 200);

// @ts-expect-error a status the route does not declare
export const undeclaredStatus: Handler = async (c) => c.json({ id: "a", count: 1, tags: [] }, 201);

// @ts-expect-error the 404's body where the 200's is declared
export const swappedBody: Handler = async (c) => c.json({ error: "x", message: "y" }, 200);

// @ts-expect-error an error status the route does not declare (409)
export const undeclaredError: Handler = async (c) => errorJson(c, 409, "conflict", "No.");

// @ts-expect-error a body-less answer where a JSON body is declared
export const emptyBody: Handler = async (c) => c.body(null, 200);

// @ts-expect-error a plain Response carries no declared status or body
export const untyped: Handler = async () => new Response("{}");

// @ts-expect-error a stream where a JSON body is declared
export const streamed: Handler = async () => declaredBody(new Response(""), 200);
