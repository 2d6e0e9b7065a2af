import { describe, expect, it } from "vitest";
import { DEFAULT_LANDING, safeLandingPath } from "./landing-path.js";

const ORIGIN = "http://127.0.0.1:3000";

// Spellings a browser reads as another host (or that would become one once normalized), and
// pages a login must not land on. The web app's login page decides with this same function.
const HOSTILE_NEXT = [
  "//evil.example/x",
  "/\\evil.example",
  "/\\/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/ \t/evil.example",
  "/..//evil.example",
  "/./\\evil.example",
  "/%2e%2e//evil.example",
  "/x/..//evil.example",
  "https://evil.example",
  "javascript:alert(1)",
  "evil.example",
  "",
  "//[",
  "/x\r\nSet-Cookie: a=b",
  "/api/v1/session",
  "/a/../api/v1/collections",
  "/login?code=x",
  "/%2e%2e/login",
];

describe("safeLandingPath", () => {
  it.each(HOSTILE_NEXT)("refuses %j", (next) => {
    expect(safeLandingPath(next, ORIGIN)).toBe(DEFAULT_LANDING);
  });

  it("refuses nothing at all", () => {
    expect(safeLandingPath(undefined, ORIGIN)).toBe(DEFAULT_LANDING);
  });

  it.each([
    ["/evaluations/abc", "/evaluations/abc"],
    ["/evaluations/list?status=RUNNING#top", "/evaluations/list?status=RUNNING#top"],
    // Percent-encoded as the URL parser encodes it, so it fits in a Location header.
    ["/evaluations/list?q=票价", "/evaluations/list?q=%E7%A5%A8%E4%BB%B7"],
    ["/collections/文档", "/collections/%E6%96%87%E6%A1%A3"],
    ["/evaluations/list?q=%E7%A5%A8", "/evaluations/list?q=%E7%A5%A8"],
    // Still this server: an escaped slash or a full-width one is only a character of the path.
    ["/%5Cevil.example", "/%5Cevil.example"],
    ["/\uFF0Fevil.example", "/%EF%BC%8Fevil.example"],
    ["/a/../evaluations", "/evaluations"],
  ])("keeps %j on the origin as %j", (next, path) => {
    expect(safeLandingPath(next, ORIGIN)).toBe(path);
  });

  it("answers a path that leads back to the origin, and only ASCII", () => {
    const path = safeLandingPath("/evaluations/list?q=票价&x=é#票", ORIGIN);
    expect(new URL(path, ORIGIN).origin).toBe(ORIGIN);
    expect(path).toMatch(/^\/[\x21-\x7e]*$/);
  });
});
