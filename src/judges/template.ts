/** A prompt as data: a system and a user message with `{name}` placeholders. */
export interface PromptTemplate {
  system: string;
  user: string;
}

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/**
 * Replaces `{name}` with `values.name` in one pass, so text inserted from a question or an answer is
 * never itself expanded. Placeholders without a value (and JSON braces) are left alone.
 */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name] as string) : whole,
  );
}

export function renderPrompt(
  template: PromptTemplate,
  values: Record<string, string>,
): [{ role: "system"; content: string }, { role: "user"; content: string }] {
  return [
    { role: "system", content: fillTemplate(template.system, values) },
    { role: "user", content: fillTemplate(template.user, values) },
  ];
}
