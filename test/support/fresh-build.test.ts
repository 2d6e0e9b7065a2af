import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { staleServerSource, staleTemplate, staleWebSource } from "./fresh-build.js";

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes a file `secondsAgo` old. */
function file(path: string, secondsAgo: number) {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, "x");
  const at = Date.now() / 1000 - secondsAgo;
  utimesSync(full, at, at);
}

it("names a source whose compiled file is missing or older, and ignores tests", () => {
  root = mkdtempSync(join(tmpdir(), "ragjudge-fresh-"));
  file("src/store/open.ts", 100);
  file("dist/store/open.js", 50);
  file("dist/cli/ragjudge.js", 50);
  file("src/store/open.test.ts", 10); // tests are not built
  file("src/types.d.ts", 10);
  expect(staleServerSource(root)).toBeUndefined();

  file("src/store/open.ts", 10);
  expect(staleServerSource(root)).toBe("src/store/open.ts");
  file("dist/store/open.js", 5);
  file("src/cli/bin.ts", 100); // never built
  expect(staleServerSource(root)).toBe("src/cli/bin.ts");
});

it("names a source newer than the CLI bundle", () => {
  root = mkdtempSync(join(tmpdir(), "ragjudge-fresh-"));
  file("src/store/open.ts", 100);
  file("dist/store/open.js", 50);
  expect(staleServerSource(root)).toBe("src/store/open.ts"); // no bundle yet
  file("dist/cli/ragjudge.js", 50);
  expect(staleServerSource(root)).toBeUndefined();
  file("src/store/open.ts", 40);
  file("dist/store/open.js", 30); // compiled again, but not bundled
  expect(staleServerSource(root)).toBe("src/store/open.ts");
});

it("names a web source newer than the built web app", () => {
  root = mkdtempSync(join(tmpdir(), "ragjudge-fresh-"));
  file("web/src/main.tsx", 100);
  file("web/src/main.test.tsx", 1);
  file("web/index.html", 100);
  file("web/vite.config.ts", 100);
  expect(staleWebSource(root)).toBe("web/src/main.tsx"); // nothing built yet
  file("dist/web/index.html", 50);
  expect(staleWebSource(root)).toBeUndefined();
  file("web/vite.config.ts", 10);
  expect(staleWebSource(root)).toBe("web/vite.config.ts");
  // The landing rule of src/ the login page imports is a web source too.
  file("web/vite.config.ts", 100);
  file("src/text/landing-path.ts", 10);
  expect(staleWebSource(root)).toBe("src/text/landing-path.ts");
});

it("names a migration newer than the PGlite template, or the template when it is missing", () => {
  root = mkdtempSync(join(tmpdir(), "ragjudge-fresh-"));
  file("drizzle/0000_init.sql", 100);
  file("drizzle/meta/_journal.json", 100);
  expect(staleTemplate(root)).toBe("dist/pglite-template.tar.gz");
  file("dist/pglite-template.tar.gz", 50);
  expect(staleTemplate(root)).toBeUndefined();
  file("drizzle/meta/_journal.json", 10);
  expect(staleTemplate(root)).toBe("drizzle/meta/_journal.json");
});
