import type { z } from "zod";

/** One validation problem, named by its field path (e.g. `generation_output.answer`). */
export interface FieldIssue {
  path: string;
  message: string;
}

export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)",
    message: issue.message,
  }));
}

/** `field: message; field: message` — for a single error line. */
export function describeIssues(error: z.ZodError): string {
  return fieldIssues(error)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join("; ");
}
