// OpenAPI paths of the arena (seed 002 section 3.2, issue 14 §2). The request body refers to the
// ArenaRequest component built in openapi.ts from the schema the route validates with.

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});
const object = (description: string) => ({
  description,
  content: { "application/json": { schema: { type: "object" } } },
});

export function arenaPaths(): Record<string, Record<string, Record<string, unknown>>> {
  const base = "/api/v1/arenas";
  return {
    [base]: {
      get: {
        summary: "List your arenas, newest first",
        parameters: [
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 500 } },
          { name: "offset", in: "query", schema: { type: "integer", minimum: 0 } },
        ],
        responses: { "200": object("{items}"), "401": error("Missing or unknown API token") },
      },
      post: {
        summary:
          "Start an arena: contestants (runs reused, answers or bots run now) on one question set",
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: { $ref: "#/components/schemas/ArenaRequest" } },
          },
        },
        responses: {
          "201": object("The arena, RUNNING until its contestants' runs finish"),
          "400": error(
            "Invalid body, or a contestant that does not fit the set (named with its rows)",
          ),
          "404": error("No such question set or evaluation for this user"),
          "503": error("The server runs without a job queue"),
        },
      },
    },
    [`${base}/{id}`]: {
      get: {
        summary: "An arena; its results (ratings, intervals, matrix) once COMPLETED",
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } },
        ],
        responses: {
          "200": object("The arena with its config snapshot and results"),
          "404": error("No such arena for this user (another user's id too)"),
        },
      },
    },
  };
}
