import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type ConsoleMessage, type Page } from "playwright-core";

/** Debian's Chromium (scripts/ensure-chromium.sh installs it); never Playwright's download. */
export const CHROMIUM = process.env.RAGJUDGE_CHROMIUM || "/usr/bin/chromium";

// Without the networking flags Chromium keeps calling home, and this machine refuses it.
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  context: BrowserContext;
  /** A new tab whose console errors and uncaught exceptions are collected in `errors`. */
  newPage(): Promise<Page>;
  /** Every console error and page error seen so far, with the page's URL. */
  errors: string[];
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile directory, in English unless told otherwise. */
export async function launchBrowser(
  options: { locale?: string; downloads?: boolean; extraArgs?: string[] } = {},
): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "ragjudge-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS, ...(options.extraArgs ?? [])],
    locale: options.locale ?? "en-GB",
    viewport: { width: 1360, height: 900 },
    acceptDownloads: options.downloads ?? true,
  });
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on("console", (message: ConsoleMessage) => {
      if (message.type() === "error") errors.push(`${page.url()}: console: ${message.text()}`);
    });
    page.on("pageerror", (error) => errors.push(`${page.url()}: pageerror: ${error.message}`));
  };
  context.pages().forEach(watch);
  context.on("page", watch);
  return {
    context,
    errors,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
