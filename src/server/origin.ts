/**
 * The one rule for every mutation (POST, PUT, PATCH, DELETE), applied by the middleware before
 * any route runs: a browser request must say it comes from this very origin. Browsers send
 * `Sec-Fetch-Site` on every request and `Origin` on every POST, fetch and form submission, so
 * anything but `same-origin` (cross-site, same-site such as the other language's host, `none`
 * for a typed address) and any other `Origin` (including `null`) is refused. A request with
 * neither header is not from a browser, so it carries no ambient cookies an attacker could
 * borrow (CSRF needs a victim's browser); it is let through to the route's own checks.
 */
export function isSameOriginMutation(headers: { get(name: string): string | null }, origin: string): boolean {
  const fetchSite = headers.get('sec-fetch-site');
  if (fetchSite !== null && fetchSite.trim().toLowerCase() !== 'same-origin') return false;
  const from = headers.get('origin');
  return from === null || from === origin;
}
