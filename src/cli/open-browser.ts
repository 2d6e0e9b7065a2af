import { spawn } from "node:child_process";

/** The command that opens a URL in the desktop's browser on this platform. */
export function browserCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[] } {
  if (platform === "darwin") return { command: "open", args: [url] };
  // Not `cmd /c start`: cmd.exe would read the URL's `&` as a command separator.
  if (platform === "win32") {
    return { command: "rundll32", args: ["url.dll,FileProtocolHandler", url] };
  }
  return { command: "xdg-open", args: [url] };
}

/**
 * Opens the URL in a browser, detached. Failing (no desktop, no xdg-open) is harmless: the URL
 * is printed anyway, so the answer is a line on stderr, never an exit.
 */
export function openInBrowser(url: string): void {
  const { command, args } = browserCommand(url);
  const warn = (reason: string) =>
    process.stderr.write(`Could not open a browser (${reason}); open the URL above yourself.\n`);
  try {
    const child = spawn(command, args, { detached: true, stdio: "ignore" });
    child.once("error", (error) => warn(error.message));
    child.unref();
  } catch (error) {
    warn((error as Error).message);
  }
}
