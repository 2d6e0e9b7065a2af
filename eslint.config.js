// Lint: ESLint's and typescript-eslint's recommended rules, and the layers of docs/architecture.md.
// Formatting is Prettier's job.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * What each folder of src/ may import (docs/architecture.md): dependencies point down only. A
 * folder is imported through its index.ts (evals/: each subfolder's), never a file inside it.
 */
const MAY_IMPORT = {
  text: [],
  llm: ["text"],
  store: ["text"],
  formats: ["text"],
  gate: ["formats", "text"],
  judges: ["gate", "llm", "formats", "text"],
  rag: ["judges", "gate", "llm", "store", "formats", "text"],
  jobs: ["store"],
  config: ["rag", "judges", "gate", "llm", "store", "formats", "text"],
  evals: ["config", "jobs", "rag", "judges", "gate", "llm", "store", "formats", "text"],
  server: ["evals", "config", "jobs", "rag", "judges", "gate", "llm", "store", "formats", "text"],
  cli: [
    "server",
    "evals",
    "config",
    "jobs",
    "rag",
    "judges",
    "gate",
    "llm",
    "store",
    "formats",
    "text",
  ],
};
const FOLDERS = Object.keys(MAY_IMPORT);

function layerRules(folder) {
  const forbidden = FOLDERS.filter(
    (other) => other !== folder && !MAY_IMPORT[folder].includes(other),
  );
  const faces = FOLDERS.filter((other) => other !== folder && other !== "evals");
  const patterns = [
    {
      regex: `^(\\.\\./)+(${faces.join("|")})/(?!index\\.js$)`,
      message: "Import another folder through its index.ts (docs/architecture.md).",
    },
  ];
  if (folder !== "evals") {
    patterns.push({
      regex: "^(\\.\\./)+evals/[^/]+/(?!index\\.js$)",
      message: "Import an evals/ subfolder through its index.ts (docs/architecture.md).",
    });
  }
  if (forbidden.length > 0) {
    patterns.push({
      regex: `^(\\.\\./)+(${forbidden.join("|")})/`,
      message:
        MAY_IMPORT[folder].length > 0
          ? `${folder}/ may import only ${MAY_IMPORT[folder].join(", ")} (docs/architecture.md).`
          : `${folder}/ imports nothing else in src/ (docs/architecture.md).`,
    });
  }
  return {
    files: [`src/${folder}/**/*.ts`],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns }] },
  };
}

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "node_modules/",
      "coverage/",
      "bench/results/",
      "bench/.*",
      "drizzle/",
      "web/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a value deliberately left unused (e.g. a field split off a record).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  ...FOLDERS.map(layerRules),
);
