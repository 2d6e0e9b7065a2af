import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";

/** Where `npm run screenshots` asks for pictures (RAGJUDGE_SCREENSHOTS=DIR); unset in tests. */
const SHOTS = process.env.RAGJUDGE_SCREENSHOTS;

/** Saves the page as DIR/<name>.png for docs/web.md when screenshots are asked for. */
export async function shoot(page: Page, name: string, fullPage = false) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  // Let lazy charts draw before the picture.
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}
