import { describe, expect, it } from "vitest";
import { browserCommand } from "./open-browser.js";

describe("browserCommand", () => {
  const url = "http://127.0.0.1:8787/login?code=lc_x&next=%2Fevaluations";
  it("uses the desktop's opener on each platform, passing the URL as one argument", () => {
    expect(browserCommand(url, "linux")).toEqual({ command: "xdg-open", args: [url] });
    expect(browserCommand(url, "darwin")).toEqual({ command: "open", args: [url] });
    // No cmd.exe in between: it would split the URL at its `&`.
    expect(browserCommand(url, "win32")).toEqual({
      command: "rundll32",
      args: ["url.dll,FileProtocolHandler", url],
    });
  });
});
