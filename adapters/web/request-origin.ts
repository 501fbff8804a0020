/**
 * Did a request come from one of Lilo's own pages? A browser names the page a form was sent from: in
 * `Sec-Fetch-Site`, in `Origin` (on every POST, "null" from a sandboxed or opaque page) and else in
 * `Referer`. Any of them naming another site refuses the request. A request naming none comes from a
 * program (curl, a test), not from a page another site made the browser send.
 */
export function fromThisSite(req: Request, publicUrl: string | undefined): boolean {
  const fetchSite = req.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return false;
  // The address the browser used: this server's own, or the reverse proxy's in front of it (LILO_WEB_URL).
  const own = new Set([new URL(req.url).origin, ...(publicUrl ? [new URL(publicUrl).origin] : [])]);
  const origin = req.headers.get("origin");
  if (origin !== null) return own.has(origin);
  const referer = req.headers.get("referer");
  if (referer === null) return true;
  try {
    return own.has(new URL(referer).origin);
  } catch {
    return false;
  }
}
