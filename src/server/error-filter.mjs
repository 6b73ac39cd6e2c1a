// @ts-check
/**
 * What error reporting leaves out and what it wipes, in one place, for every event: the
 * server's own (the SDK's beforeSend, src/server/error-reports.mjs), the browser's that arrive
 * through the tunnel (POST /api/errors/), and the log lines written when no SENTRY_DSN is set.
 * Plain JavaScript (typed by JSDoc) because scripts/serve.mjs loads it without a build.
 * docs/operations.md ("Error reporting") lists both.
 */

/**
 * The spec's ignore list (section 8, "Error reporting ignores noise"): errors a reader's
 * network, browser or extensions cause, or that the site answers on purpose, none of which an
 * operator can fix. Matched against an event's exception types, values and message.
 * @type {readonly { why: string, match: RegExp }[]}
 */
export const IGNORED_ERRORS = Object.freeze([
  { why: 'cancelled requests', match: /\bAbortError\b|\bcancell?ed\b|operation was aborted|user aborted/i },
  // The bot check refuses with this header (src/lib/app-check.ts, APP_CHECK_REFUSED_HEADER); the browser fetches a new token and tries once more.
  { why: 'app-check 403', match: /X-App-Check-Refused|\bapp[- ]?check\b[^\n]{0,80}\b403\b|\b403\b[^\n]{0,80}\bapp[- ]?check\b/i },
  { why: 'fetch and throttling errors', match: /Failed to fetch|NetworkError|Load failed|Network request failed|\b429\b|Too Many Requests/i },
  { why: 'local-database errors', match: /IndexedDB|Indexed ?Database|\bIDB[A-Z]\w*|QuotaExceeded|quota (?:has been )?exceeded/i },
  { why: 'bot-check errors', match: /\baltcha\b|\bturnstile\b/i },
  { why: 'instant-search bridge errors', match: /instant-?search|search[- ]bridge/i },
  { why: "errors mentioning 'Adult Content'", match: /Adult Content/i },
  { why: 'null-document access', match: /\(reading 'document'\)|property 'document' of null|null is not an object \(evaluating '[^']*\.document'\)|document is null|can't access property "document"/i },
]);

/**
 * A chunk that failed to load after a new deploy (the browser's dynamic import of an /_astro/
 * file that is gone): reported as a ChunkLoadError, and the page offers a reload
 * (src/lib/error-handler.ts has the browser's copy of these words).
 */
export const CHUNK_LOAD_ERROR = /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|ChunkLoadError/i;

/**
 * @typedef {{ type?: string, value?: string }} ExceptionValue
 * @typedef {{ message?: unknown, exception?: { values?: ExceptionValue[] }, extra?: Record<string, unknown> }} EventLike
 */

/** Why this event is noise (the list's `why`), or null when it is reported. A chunk-load failure is never noise, even when its text says "Failed to fetch". */
/** @param {EventLike} event */
export function ignoredBecause(event) {
  const parts = [];
  if (typeof event.message === 'string') parts.push(event.message);
  else if (event.message && typeof event.message === 'object' && 'formatted' in event.message) parts.push(String(/** @type {{formatted: unknown}} */ (event.message).formatted));
  for (const v of event.exception?.values ?? []) parts.push(`${v.type ?? ''}: ${v.value ?? ''}`);
  const text = parts.join('\n');
  if (CHUNK_LOAD_ERROR.test(text)) return null;
  return IGNORED_ERRORS.find((rule) => rule.match.test(text))?.why ?? null;
}

const FILTERED = '[Filtered]';

/** Keys whose values never leave, whatever they hold (compared lower-cased, without - and _). */
const SECRET_KEYS = /^(cookies?|setcookie|authorization|proxyauthorization|password|passwd|secret|token|accesstoken|refreshtoken|apptoken|appchecktoken|xappcheck|session|sessionid|sid|csrf|xcsrftoken|email|mail|cpf|cnpj|taxid|card|cardnumber|pan|cvv|cvc|ip|ipaddress|xforwardedfor|xrealip|forwarded|sig|signature|apikey|key|privatekey)$/;

/** URL query and cookie-style pairs whose values never leave: signed media URLs (`exp`, `sig`), tokens, sessions. */
const SECRET_PARAM = /\b((?:[\w-]*?(?:sig|signature|token|session|sid|secret|password|passwd|auth|key|code|expires?|email|cpf|cnpj))|exp)=([^&;\s"'<>]*)/gi;

/**
 * What is wiped from any text, in order: bearer credentials, emails, card numbers (13-19 digits,
 * spaced or not), CPF and CNPJ (Brazilian tax ids, formatted or bare), IPv4 and IPv6 addresses,
 * long opaque tokens.
 * @type {readonly [RegExp, string | ((m: string) => string)][]}
 */
const TEXT_RULES = Object.freeze([
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${FILTERED}`],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, '[email]'],
  [/\b(?:\d[ -]?){12,18}\d\b/g, '[number]'],
  [/\b\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}\b/g, '[tax-id]'],
  [/\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b/g, '[tax-id]'],
  [/\b(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}\b/g, '[ip]'],
  // IPv6: with "::" or six groups and more, so times (12:30:45) and file:line:column stay.
  [/(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\w:])/gi, (/** @type {string} */ m) => (m.includes('::') || m.split(':').length >= 6 ? '[ip]' : m)],
  [/\b(?=[A-Za-z0-9_-]{32,})(?=[A-Za-z_-]*\d)(?=[\d_-]*[A-Za-z])[A-Za-z0-9_-]{32,}\b/g, '[token]'],
]);

/** A text with every secret pair and personal datum replaced. */
/** @param {string} text */
export function scrubText(text) {
  let out = text.replace(SECRET_PARAM, (_, name) => `${name}=${FILTERED}`);
  for (const [pattern, replacement] of TEXT_RULES) out = typeof replacement === 'string' ? out.replace(pattern, replacement) : out.replace(pattern, replacement);
  return out;
}

/**
 * A deep copy of `value` without personal data: secret keys emptied, every string scrubbed.
 * Used on whole events (request, tags, extra, breadcrumbs, exception values) and log lines.
 * @template T
 * @param {T} value
 * @returns {T}
 */
export function scrub(value, depth = 0) {
  if (typeof value === 'string') return /** @type {T} */ (/** @type {unknown} */ (scrubText(value)));
  if (value === null || typeof value !== 'object') return value;
  if (depth > 12) return /** @type {T} */ (/** @type {unknown} */ (FILTERED));
  if (Array.isArray(value)) return /** @type {T} */ (/** @type {unknown} */ (value.map((v) => scrub(v, depth + 1))));
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEYS.test(k.toLowerCase().replace(/[-_]/g, '')) && v !== null && v !== undefined ? FILTERED : scrub(v, depth + 1);
  }
  return /** @type {T} */ (out);
}

/** The parts of an event that carry what people typed, saw or sent; ids, timestamps and the trace context stay as they are. */
const EVENT_CONTENT = ['message', 'logentry', 'exception', 'breadcrumbs', 'extra', 'tags', 'transaction', 'culprit', 'fingerprint'];

/**
 * A Sentry event as it may leave: its content scrubbed, without the user (sendDefaultPii is off,
 * and this makes sure), and the request reduced to its method, scrubbed URL and user agent.
 * @template {Record<string, any>} E
 * @param {E} event
 * @returns {E}
 */
export function scrubEvent(event) {
  const { user: _user, request, ...rest } = event;
  /** @type {Record<string, any>} */
  const clean = { ...rest };
  for (const key of EVENT_CONTENT) if (clean[key] !== undefined) clean[key] = scrub(clean[key]);
  if (clean.contexts && typeof clean.contexts === 'object') {
    const { trace, ...others } = clean.contexts;
    clean.contexts = { ...scrub(others), ...(trace ? { trace: { ...trace, data: scrub(trace.data) } } : {}) };
  }
  if (request && typeof request === 'object') {
    clean.request = { method: request.method, url: typeof request.url === 'string' ? scrubText(request.url) : undefined };
    // The user agent (which browser) is kept for browser events, as sent (a version such as
    // Chrome/131.0.0.0 would read as an address); nothing else of the headers.
    const ua = request.headers?.['User-Agent'] ?? request.headers?.['user-agent'];
    if (typeof ua === 'string') clean.request.headers = { 'User-Agent': ua.slice(0, 300) };
  }
  return /** @type {E} */ (clean);
}

/** Crawlers and link previews: their errors are not readers' (the tunnel answers 202 and drops them). */
export const BOT_AGENTS = /bot\b|bot\/|crawl|spider|slurp|facebookexternalhit|embedly|preview|lighthouse|pingdom|uptime|python-|curl\/|wget\/|go-http-client|headlesschrome/i;

/** Whether a User-Agent is a crawler's (or missing: every browser sends one). */
/** @param {string | null | undefined} userAgent */
export function isBot(userAgent) {
  return !userAgent || BOT_AGENTS.test(userAgent);
}
