/**
 * The one cookie policy: every cookie the site sets (the session, the theme, the listing view)
 * takes its attributes from here. Path=/, SameSite=Lax, Secure over https, and, when the operator
 * sets COOKIE_DOMAIN (src/server/config.mjs), Domain=that domain, so that a reader's session and
 * preferences follow them between the English host and its `br.` twin. Browser-safe: the header
 * and listing scripts write their cookies with the same attributes.
 */

/** What a cookie's scope depends on: the scheme and the shared domain (null: this host only). */
export interface CookieScope {
  secure: boolean;
  domain: string | null;
}

/** Options in the shape Astro's `cookies.set` takes. */
export interface CookieOptions {
  path: '/';
  sameSite: 'lax';
  secure: boolean;
  httpOnly: boolean;
  maxAge: number;
  domain?: string;
}

/** A host name without its port, lower-cased. */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

/** Whether `host` is `domain` itself or one of its subdomains (what a browser accepts Domain= for). */
export function hostInDomain(host: string, domain: string): boolean {
  const h = hostName(host);
  return h === domain || h.endsWith(`.${domain}`);
}

/**
 * The scope of cookies set on a request to `host`: the configured domain only when the host
 * belongs to it (a browser drops a cookie whose Domain does not cover the host that sets it, so a
 * request on another name, such as a health check on 127.0.0.1, keeps host-only cookies).
 */
export function cookieScope(host: string, secure: boolean, configuredDomain: string | null): CookieScope {
  return { secure, domain: configuredDomain && hostInDomain(host, configuredDomain) ? configuredDomain : null };
}

/** Attributes for one cookie in a scope. */
export function cookieOptions(scope: CookieScope, o: { maxAge: number; httpOnly?: boolean }): CookieOptions {
  const opts: CookieOptions = { path: '/', sameSite: 'lax', secure: scope.secure, httpOnly: o.httpOnly ?? false, maxAge: Math.max(0, Math.floor(o.maxAge)) };
  if (scope.domain) opts.domain = scope.domain;
  return opts;
}

/** A Set-Cookie / `document.cookie` string (the value is written as given: callers pass cookie-safe values). */
export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  return `${name}=${value}; Path=${o.path}${o.domain ? `; Domain=${o.domain}` : ''}; Max-Age=${o.maxAge}${o.httpOnly ? '; HttpOnly' : ''}; SameSite=Lax${o.secure ? '; Secure' : ''}`;
}

/** The attribute on `<html>` that hands the page's cookie domain to browser scripts. */
export const COOKIE_DOMAIN_ATTRIBUTE = 'data-cookie-domain';

/** The scope browser scripts write cookies in: this page's scheme and the domain the server named. */
export function browserCookieScope(doc: Document = document, loc: Location = location): CookieScope {
  const domain = doc.documentElement.getAttribute(COOKIE_DOMAIN_ATTRIBUTE) || null;
  return cookieScope(loc.host, loc.protocol === 'https:', domain);
}
