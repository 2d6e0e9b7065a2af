/**
 * Logs in through a printed login link as a browser does: opening the link shows a page whose
 * form posts the code back with the page's own Origin (GET never logs anyone in). Returns the
 * session cookie ("ragjudge_session=...").
 */
export async function redeemLoginLink(link: string): Promise<string> {
  const page = await (await fetch(link, { headers: { "sec-fetch-site": "none" } })).text();
  const fields = [...page.matchAll(/name="(\w+)" value="([^"]*)"/g)].map(
    ([, name, value]) => [name ?? "", (value ?? "").replaceAll("&amp;", "&")] as [string, string],
  );
  const opened = await fetch(new URL("/login", link), {
    method: "POST",
    redirect: "manual",
    headers: { origin: new URL(link).origin },
    body: new URLSearchParams(fields),
  });
  const cookie = /ragjudge_session=[^;]+/.exec(opened.headers.get("set-cookie") ?? "")?.[0];
  if (!cookie) throw new Error(`the login link did not log in (HTTP ${opened.status})`);
  return cookie;
}
