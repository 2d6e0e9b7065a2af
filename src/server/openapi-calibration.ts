// OpenAPI paths of human labels and calibration (seed 002 sections 4 and 5.3). Request bodies
// refer to components built in openapi.ts from the zod schemas the routes validate with.

type Operation = Record<string, unknown>;

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});
const object = (description: string) => ({
  description,
  content: { "application/json": { schema: { type: "object" } } },
});
const body = (schema: string) => ({
  required: true,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
});
const path = (
  name: string,
  schema: Record<string, unknown> = { type: "string", format: "uuid" },
) => ({
  name,
  in: "path",
  required: true,
  schema,
});
const query = (name: string, schema: Record<string, unknown>, description?: string) => ({
  name,
  in: "query",
  schema,
  ...(description ? { description } : {}),
});
const scale = { type: "string", enum: ["1-10", "1-5", "pass_fail"] };
const notFound = error("No such evaluation or result for this user (another user's id too)");

export function calibrationPaths(): Record<string, Record<string, Operation>> {
  const run = "/api/v1/evaluations/{id}";
  const label = `${run}/results/{resultId}/labels/{scale}`;
  return {
    [`${run}/labels`]: {
      get: {
        summary: "Every human label of a run, in question order",
        parameters: [path("id"), query("scale", scale)],
        responses: { "200": object("{items}"), "404": notFound },
      },
    },
    [`${run}/labels/next`]: {
      get: {
        summary:
          "The labelling view's next item: the first judged result with no label on the scale, without the judges' verdicts",
        parameters: [
          path("id"),
          { ...query("scale", scale), required: true },
          query("after", { type: "integer", minimum: -1 }, "Skip results up to this position"),
        ],
        responses: {
          "200": object(
            "{scale, labelled, unlabelled, result: {id, question, answer, sources...} | null}",
          ),
          "400": error("Bad query"),
          "404": notFound,
        },
      },
    },
    [`${run}/labels/import`]: {
      post: {
        summary:
          "Import a label file's lines ({question, human_score | human_passed, note?}); all or nothing",
        parameters: [path("id")],
        requestBody: body("ImportLabels"),
        responses: {
          "201": object("{lines, written, scale}"),
          "400": error(
            "Every bad or unmatched line, in lines[] (line, field, message); nothing was written",
          ),
          "404": notFound,
        },
      },
    },
    [`${run}/results/{resultId}/labels`]: {
      get: {
        summary: "A result's labels",
        parameters: [path("id"), path("resultId")],
        responses: { "200": object("{items}"), "404": notFound },
      },
    },
    [label]: {
      put: {
        summary:
          "Set (or replace) a result's label on a scale: score on 1-10 or 1-5, passed on pass_fail",
        parameters: [path("id"), path("resultId"), path("scale", scale)],
        requestBody: body("LabelInput"),
        responses: {
          "200": object("The label"),
          "400": error("A score off the scale, or the wrong field for it"),
          "404": notFound,
        },
      },
      delete: {
        summary: "Delete a result's label on a scale",
        parameters: [path("id"), path("resultId"), path("scale", scale)],
        responses: { "204": { description: "Deleted" }, "404": error("No such label") },
      },
    },
    [`${run}/calibration`]: {
      get: {
        summary:
          "How far a judge of the run agrees with the human labels: agreement, constant baseline, pass rates (judge, human, PPI++), golden-set verdict, disagreements",
        parameters: [
          path("id"),
          query("judge", { type: "string" }),
          query("target", { type: "number" }, "The ±1 share to reach (default 0.9)"),
          query("kappa", { type: "number" }, "The κ to reach (default 0.6)"),
          query("disagreements", { type: "integer", minimum: 1, maximum: 1000 }),
        ],
        responses: {
          "200": object("The calibration report (docs/calibration.md)"),
          "400": error("A judge the run did not use, or a bad query"),
          "404": notFound,
        },
      },
    },
  };
}
