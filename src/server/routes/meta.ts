import { z } from "zod";
import { defineRoute } from "../route.js";
import { OkSchema } from "../schemas.js";

export const metaApi = {
  health: defineRoute({
    method: "get",
    path: "/api/v1/health",
    tags: ["meta"],
    summary: "Liveness: answers without a login",
    public: true,
    responses: { 200: { description: "Up", schema: OkSchema } },
  }),
  openapi: defineRoute({
    method: "get",
    path: "/api/v1/openapi.json",
    tags: ["meta"],
    summary: "This document, generated from the route table",
    public: true,
    responses: {
      200: { description: "The OpenAPI 3.0 document", schema: z.record(z.string(), z.unknown()) },
    },
  }),
};
