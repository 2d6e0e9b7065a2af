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

/** A phone's screen (an iPhone 12-15's CSS size): touch, a mobile viewport, 3 device pixels a pixel. */
export const PHONE = { width: 390, height: 844 } as const;

/**
 * Headless Chromium with a fresh profile directory, in English unless told otherwise; a desktop
 * window (1360×900) unless `phone` asks for a phone's screen, where the page's meta viewport
 * applies as on a real phone (a page wider than the screen is shown zoomed out).
 */
export async function launchBrowser(
  options: { locale?: string; downloads?: boolean; extraArgs?: string[]; phone?: boolean } = {},
): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "ragjudge-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS, ...(options.extraArgs ?? [])],
    locale: options.locale ?? "en-GB",
    ...(options.phone
      ? { viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 3 }
      : { viewport: { width: 1360, height: 900 } }),
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
