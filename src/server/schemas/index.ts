// The HTTP API's own shapes, one file per area: request bodies beyond the services' own, and
// responses (rows as server/rows.ts shows them; times are ISO 8601 strings on the wire). Route
// files hold routes, with their query and path parameters. The order here is the order of the
// OpenAPI document's response components (each is named as its file loads).
export * from "./common.js";
export * from "./gate.js";
export * from "./judges.js";
export * from "./question-sets.js";
export * from "./rag.js";
export * from "./evaluations.js";
export * from "./session.js";
export * from "./bots.js";
export * from "./arenas.js";
export * from "./answers.js";
export * from "./ingest-keys.js";
export * from "./labels.js";
export * from "./queues.js";
export * from "./monitors.js";
export * from "./alerts.js";
export * from "./workspaces.js";
export * from "./traces.js";
export * from "./meta.js";
