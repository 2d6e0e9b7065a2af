export { type AppOptions, createApp, DEFAULT_MAX_BODY_BYTES } from "./app.js";
export { listen } from "./listen.js";
export { buildOpenApiDocument } from "./openapi.js";
export { SESSION_COOKIE } from "./auth.js";
export { errorLogSummary } from "./error-log.js";
