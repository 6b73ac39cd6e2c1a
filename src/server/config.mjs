// @ts-check
/**
 * All configuration is read here, once, from the environment, and checked at start: a bad value
 * stops the start with a message that names it. Plain JavaScript (typed by JSDoc) so that every
 * entry point can import it: the Astro server, the tsx scripts (migrate, seed, user), the HTTP
 * server in scripts/serve.mjs and the build config. docs/operations.md lists the settings.
 */
import os from 'node:os';
import path from 'node:path';

export const SECRET_MIN_LENGTH = 32;

/**
 * @typedef {object} Config
 * @property {string} databaseUrl `file:…` (SQLite), `postgres://…` or `:memory:`.
 * @property {string} mediaDir Where images live (absolute) with the disk store; with an S3 store, only the uploads' scratch folders.
 * @property {MediaStoreConfig} mediaStore MEDIA_STORE: the disk under MEDIA_DIR, or an S3-compatible bucket (docs/operations.md, "Media").
 * @property {string} dataDir Where the server keeps files it creates for itself: the generated secret (absolute).
 * @property {string | null} secret The root signing secret from INKPASS_SECRET, or null to use the generated one (src/server/secrets.ts).
 * @property {string | null} countryHeader The header a CDN sets to the visitor's ISO country, lower-cased; null: no header is believed.
 * @property {number} bodyTimeoutMs How long a request body may take to arrive before the answer is 408.
 * @property {number} pgPoolMax PostgreSQL connections each process keeps.
 * @property {boolean} trustProxy Believe X-Forwarded-* (a proxy in front sets them).
 * @property {number} port Where scripts/serve.mjs listens.
 * @property {string} host
 * @property {boolean} warmup Render a few pages on a private port before the public one opens.
 * @property {number} pageCacheBytes Memory the page cache may use for anonymous pages (0 turns it off).
 * @property {number} adMinSeconds How long a house ad plays before its free read can be claimed.
 * @property {number} workers Server processes scripts/serve.mjs runs under node:cluster (WORKERS; default: one per core). 1: one process, no cluster primary (scripts/cluster.mjs).
 * @property {number} releaseCheckSeconds How often a process looks for newly released chapters (and then forgets what it kept of the catalogue).
 * @property {string[]} siteHosts Production host names (build time; Astro trusts them in the Host header).
 * @property {string | null} cookieDomain The domain both sites' hosts belong to (COOKIE_DOMAIN): cookies carry Domain= it, so a session and the theme follow a reader across hosts; null: host-only cookies.
 * @property {boolean} production NODE_ENV=production (the built server): how the app is built and served, not what it may do (that is `mode`).
 * @property {'demo' | 'production'} mode INKPASS_MODE: a demo (sandboxes, demo accounts, test cards, a band on every page) or a real shop (docs/operations.md).
 * @property {boolean} modeSet Whether INKPASS_MODE was set; unset, the demo is allowed only on a loopback address (see `startupRefusals`).
 * @property {boolean} hostSet Whether HOST was set (unset: the demo listens on loopback only).
 * @property {PaymentsConfig} payments Which providers take payments, and their settings (docs/payments.md).
 * @property {AppCheckConfig} appCheck The bot check before money calls (docs/decisions.md, "App check").
 * @property {{ 1: number, 3: number }} welcomeXtraKeys Xtra keys a new account gets at sign-up, by the site it signs up on (WELCOME_XTRA_KEYS_EN, WELCOME_XTRA_KEYS_BR; 0: none). A demo gives 6, production none unless set (docs/decisions.md, "A welcome for new readers").
 * @property {LogLevel} logLevel LOG_LEVEL: the least severe log line written (src/server/observe.mjs).
 * @property {string | null} metricsToken METRICS_TOKEN: GET /metrics answers only `Authorization: Bearer` it; null: /metrics is the site's 404.
 * @property {SellerConfig} seller Who sells, as receipts name it (SELLER_NAME, SELLER_ADDRESS, SELLER_TAX_ID; docs/payments.md, "Receipts").
 * @property {ErrorReportingConfig} errors Error reporting (SENTRY_DSN, INKPASS_DEBUG; docs/operations.md, "Error reporting").
 * @property {MailConfig} mail Outgoing email (SMTP_URL, MAIL_FROM; docs/operations.md, "Email").
 * @property {PushConfig} push Web push (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT, PUSH_ENDPOINT_HOSTS; docs/operations.md, "Web push").
 */

/**
 * @typedef {object} PushConfig
 * @property {{ publicKey: string, privateKey: string, subject: string } | null} vapid The VAPID keys (base64url, as `npx web-push generate-vapid-keys` prints them) and the contact push services see (mailto: or https:). null: a demo makes its own pair in DATA_DIR; production offers no push.
 * @property {string[]} endpointHosts PUSH_ENDPOINT_HOSTS: hosts accepted as push services besides the known ones (`*.example` for a domain's subdomains); plain http only for loopback hosts. For tests' local stand-ins.
 */

/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {PushConfig}
 */
export function readPush(env) {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() || '';
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() || '';
  const subject = env.VAPID_SUBJECT?.trim() || '';
  let vapid = null;
  if (publicKey || privateKey) {
    if (!/^[A-Za-z0-9_-]{86,88}$/.test(publicKey)) throw invalid('VAPID_PUBLIC_KEY must be the base64url public key `npx web-push generate-vapid-keys` prints (87 characters)');
    if (!/^[A-Za-z0-9_-]{42,44}$/.test(privateKey)) throw invalid('VAPID_PRIVATE_KEY must be the base64url private key `npx web-push generate-vapid-keys` prints (43 characters)');
    if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s]+)$/.test(subject)) throw invalid(`VAPID_SUBJECT must be a mailto: address or an https: URL where push services can reach you (got "${subject}")`);
    vapid = { publicKey, privateKey, subject };
  }
  const endpointHosts = (env.PUSH_ENDPOINT_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  for (const h of endpointHosts) if (!/^(\*\.)?[a-z0-9.-]{1,253}$|^\[?::1\]?$/.test(h)) throw invalid(`PUSH_ENDPOINT_HOSTS must list host names separated by commas (got "${h}")`);
  return { vapid, endpointHosts };
}

/**
 * @typedef {object} MailConfig
 * @property {string | null} smtpUrl SMTP_URL: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465; null: nothing is sent (a demo shows the messages at /dev/outbox/, production keeps them queued).
 * @property {string} from MAIL_FROM: the From of every message (default: Inkpass <no-reply@localhost>).
 */

/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {MailConfig}
 */
export function readMail(env) {
  const raw = env.SMTP_URL?.trim() || '';
  let smtpUrl = null;
  if (raw) {
    let url = null;
    try { url = new URL(raw); } catch { url = null; }
    if (!url || !/^smtps?:$/.test(url.protocol) || !url.hostname) throw invalid(`SMTP_URL must be smtp://user:password@host:587 or smtps://user:password@host:465 (got "${raw.replace(/\/\/[^@/]*@/, '//…@')}")`);
    smtpUrl = raw;
  }
  const from = env.MAIL_FROM?.trim() || 'Inkpass <no-reply@localhost>';
  if (from.length > 254 || /[\r\n]/.test(from) || !/@/.test(from)) throw invalid(`MAIL_FROM must be an address such as "Inkpass <no-reply@example.com>" (got "${from}")`);
  return { smtpUrl, from };
}

/**
 * @typedef {object} ErrorReportingConfig
 * @property {string | null} dsn SENTRY_DSN: where events go (Sentry, a self-hosted Sentry or GlitchTip); null: nothing is sent and errors are JSON log lines.
 * @property {boolean} debug INKPASS_DEBUG=1: the debug flag, which turns reporting off (spec section 9) whatever SENTRY_DSN says; errors are log lines.
 * @property {boolean} enabled A DSN is set and the debug flag is not: the SDK is loaded and initialised (otherwise it is never imported).
 * @property {string} environment The events' environment: INKPASS_MODE (`production` or `demo`).
 * @property {number} sampleRate Errors sent (spec: 1).
 * @property {number} tracesSampleRate Requests sent as transactions (spec: 0.1).
 * @property {number} bufferSize Events the transport holds at once (spec: 30); more are dropped.
 */

/** The spec's numbers (section 9): every error, one request in ten traced, a buffer of 30 events. */
export const ERROR_REPORTING = Object.freeze({ sampleRate: 1, tracesSampleRate: 0.1, bufferSize: 30 });

/**
 * SENTRY_DSN, as Sentry and GlitchTip show it: http(s)://<public key>@<host>[/<path>]/<project id>.
 * @param {NodeJS.ProcessEnv} env
 * @param {'demo' | 'production'} mode
 * @returns {ErrorReportingConfig}
 */
export function readErrorReporting(env, mode) {
  const raw = env.SENTRY_DSN?.trim() || '';
  let dsn = null;
  if (raw) {
    let url = null;
    try { url = new URL(raw); } catch { url = null; }
    if (!url || !/^https?:$/.test(url.protocol) || !url.username || !/\/[\w.-]+\/?$/.test(url.pathname) || url.search || url.hash) {
      throw invalid(`SENTRY_DSN must be a DSN such as https://<key>@o0.ingest.sentry.io/<project> (Sentry's or GlitchTip's project settings show it; got "${raw.replace(/\/\/[^@/]*@/, '//…@')}")`);
    }
    dsn = raw;
  }
  const debug = flag(env.INKPASS_DEBUG, 'INKPASS_DEBUG', false);
  return { dsn, debug, enabled: dsn !== null && !debug, environment: mode, ...ERROR_REPORTING };
}

/**
 * @typedef {object} SellerConfig
 * @property {string | null} name The seller's legal name; null: receipts name the site ("Inkpass").
 * @property {string | null} address One line; null: receipts show none.
 * @property {string | null} taxId The seller's tax number (an EIN, a CNPJ…); null: receipts show none.
 */

/** @typedef {'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'} LogLevel */
export const LOG_LEVELS = /** @type {const} */ (['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * LOG_LEVEL: one of LOG_LEVELS; info (a line per request) by default.
 * @param {string | undefined} raw
 * @returns {LogLevel}
 */
export function readLogLevel(raw) {
  const v = raw?.trim().toLowerCase() || 'info';
  const level = LOG_LEVELS.find((l) => l === v);
  if (!level) throw invalid(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`);
  return level;
}

/** A METRICS_TOKEN shorter than this is refused: it is the only thing between /metrics and anyone. */
export const METRICS_TOKEN_MIN_LENGTH = 24;

/**
 * METRICS_TOKEN: at least METRICS_TOKEN_MIN_LENGTH characters that fit in a header (no spaces).
 * @param {string | undefined} raw
 */
export function readMetricsToken(raw) {
  const v = raw?.trim();
  if (!v) return null;
  if (v.length < METRICS_TOKEN_MIN_LENGTH || v.length > 512 || !/^[\x21-\x7e]+$/.test(v)) {
    throw invalid(`METRICS_TOKEN must be ${METRICS_TOKEN_MIN_LENGTH} to 512 printable characters without spaces (try: openssl rand -hex 24)`);
  }
  return v;
}

/** A demo's seller, so a demo receipt shows every line (and says it is not a real business). */
export const DEMO_SELLER = Object.freeze({ name: 'Inkpass Demo (not a real business)', address: '1 Example Street, Springfield, 00000', taxId: 'DEMO-00-0000000' });

/** What a demo gives a new reader: two chapters at the usual 3 keys, so the key path can be tried before buying. */
export const DEMO_WELCOME_XTRA_KEYS = 6;

/**
 * @typedef {object} AppCheckConfig
 * @property {boolean} enforced Whether routes marked `appCheck` (src/server/routes.ts) refuse calls without a valid token: always in production, in a demo only with APP_CHECK=on.
 * @property {'on' | 'off' | null} setting APP_CHECK as set (null: unset); `off` in production stops the start.
 * @property {'altcha' | 'turnstile'} provider The self-hosted proof of work (ALTCHA's protocol), or Cloudflare Turnstile when both of its keys are set.
 * @property {number} difficulty APP_CHECK_DIFFICULTY: the highest counter a challenge hides; the browser derives about three quarters of it in keys on average (docs/performance.md, "App check").
 * @property {boolean} debug APP_CHECK_DEBUG=1: the browser solves a challenge only when a call needs a token, with no token kept ready or refreshed in the background.
 * @property {{ siteKey: string, secretKey: string, verifyUrl: string } | null} turnstile `verifyUrl` may point at a local stand-in (tests).
 */

/** Cloudflare's server-side check of a Turnstile token. */
export const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/**
 * At this difficulty a 4×-throttled Chromium solves a challenge in 0.25-0.3 s (median; 0.4 s at
 * worst: docs/performance.md, "App check"), and it does so before the reader presses the button.
 */
export const APP_CHECK_DEFAULT_DIFFICULTY = 200;

/**
 * @param {NodeJS.ProcessEnv} env
 * @param {'demo' | 'production'} mode
 * @returns {AppCheckConfig}
 */
function readAppCheck(env, mode) {
  const raw = env.APP_CHECK?.trim().toLowerCase() || '';
  if (raw && raw !== 'on' && raw !== 'off') throw invalid(`APP_CHECK must be on or off (got "${env.APP_CHECK}")`);
  /** @type {'on' | 'off' | null} */
  const setting = raw === 'on' ? 'on' : raw === 'off' ? 'off' : null;
  const siteKey = env.TURNSTILE_SITE_KEY?.trim() || '';
  const secretKey = env.TURNSTILE_SECRET_KEY?.trim() || '';
  if (!!siteKey !== !!secretKey) throw invalid('TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY go together: set both to use Cloudflare Turnstile, or neither for the self-hosted proof of work');
  if (siteKey && !/^[\w.-]{1,200}$/.test(siteKey)) throw invalid(`TURNSTILE_SITE_KEY must be the site key Cloudflare shows (letters, digits, ".", "_", "-"; got "${siteKey}")`);
  const verifyUrl = env.TURNSTILE_VERIFY_URL?.trim() || TURNSTILE_VERIFY_URL;
  if (!/^https?:\/\/[^\s]+$/.test(verifyUrl)) throw invalid(`TURNSTILE_VERIFY_URL must be an http(s) URL (got "${verifyUrl}")`);
  return {
    enforced: mode === 'production' || setting === 'on',
    setting,
    provider: siteKey ? 'turnstile' : 'altcha',
    difficulty: integer(env.APP_CHECK_DIFFICULTY, 'APP_CHECK_DIFFICULTY', APP_CHECK_DEFAULT_DIFFICULTY, 1, 1_000_000),
    debug: flag(env.APP_CHECK_DEBUG, 'APP_CHECK_DEBUG', false),
    turnstile: siteKey ? { siteKey, secretKey, verifyUrl } : null,
  };
}

/**
 * @typedef {object} PaymentsConfig
 * @property {'sandbox' | 'braintree' | 'none'} card Card-type methods: the local sandbox (demo only), Braintree, or none offered.
 * @property {boolean} cardSet Whether PAYMENTS_CARD was set (a production install that sets `sandbox` is refused; one that sets nothing offers no card payments).
 * @property {{ environment: 'sandbox' | 'production' | { host: string, port: number, ssl: boolean }, merchantId: string, publicKey: string, privateKey: string, merchantAccounts: Record<string, string> } | null} braintree `BRAINTREE_ENVIRONMENT` may also be a gateway URL (a local stand-in for tests).
 * @property {'sandbox' | 'openpix' | 'none'} pix Pix: the local sandbox (demo only), a Woovi/OpenPix-style PSP, or none offered.
 * @property {boolean} pixSet Whether PAYMENTS_PIX was set.
 * @property {{ baseUrl: string, appId: string, webhookPublicKey: string | null, webhookSecret: string | null } | null} openpix Webhooks are checked with `webhookPublicKey` (Woovi's published key when unset) and, when set, the HMAC secret too.
 * @property {string} pixKey The merchant's Pix key (what the sandbox writes into BR Codes).
 * @property {string} pixMerchantName
 * @property {string} pixMerchantCity
 * @property {number} pixExpiresSeconds How long a Pix charge stays payable.
 */

/**
 * The providers default to the local sandboxes in a demo and to none in production, where a
 * method is offered only once its real provider is configured.
 * @param {NodeJS.ProcessEnv} env
 * @param {'demo' | 'production'} mode
 * @returns {PaymentsConfig}
 */
function readPayments(env, mode) {
  const fallback = mode === 'demo' ? 'sandbox' : 'none';
  const cardSet = !!env.PAYMENTS_CARD?.trim();
  const card = env.PAYMENTS_CARD?.trim() || fallback;
  if (card !== 'sandbox' && card !== 'braintree' && card !== 'none') throw invalid(`PAYMENTS_CARD must be braintree, sandbox (demo only) or none (got "${card}")`);
  const pixSet = !!env.PAYMENTS_PIX?.trim();
  const pix = env.PAYMENTS_PIX?.trim() || fallback;
  if (pix !== 'sandbox' && pix !== 'openpix' && pix !== 'none') throw invalid(`PAYMENTS_PIX must be openpix, sandbox (demo only) or none (got "${pix}")`);
  /** @param {string} name */
  const required = (name) => {
    const v = env[name]?.trim();
    if (!v) throw invalid(`${name} is required when ${name.startsWith('BRAINTREE') ? 'PAYMENTS_CARD=braintree' : 'PAYMENTS_PIX=openpix'}`);
    return v;
  };
  let braintree = null;
  if (card === 'braintree') {
    const named = env.BRAINTREE_ENVIRONMENT?.trim() || 'sandbox';
    /** @type {'sandbox' | 'production' | { host: string, port: number, ssl: boolean }} */
    let environment;
    if (named === 'sandbox' || named === 'production') environment = named;
    else {
      // A gateway URL: the local stand-in the tests speak Braintree's XML with.
      const url = /^(https?):\/\/([a-z0-9.-]+):(\d{1,5})\/?$/i.exec(named);
      if (!url) throw invalid(`BRAINTREE_ENVIRONMENT must be sandbox, production or a gateway URL such as http://127.0.0.1:9999 (got "${named}")`);
      const [, scheme = '', host = '', port = ''] = url;
      environment = { host, port: Number(port), ssl: scheme.toLowerCase() === 'https' };
    }
    /** @type {Record<string, string>} */
    const merchantAccounts = {};
    for (const currency of ['USD', 'BRL']) {
      const v = env[`BRAINTREE_MERCHANT_ACCOUNT_${currency}`]?.trim();
      if (v) merchantAccounts[currency] = v;
    }
    braintree = { environment, merchantId: required('BRAINTREE_MERCHANT_ID'), publicKey: required('BRAINTREE_PUBLIC_KEY'), privateKey: required('BRAINTREE_PRIVATE_KEY'), merchantAccounts };
  }
  let openpix = null;
  if (pix === 'openpix') {
    const baseUrl = env.OPENPIX_BASE_URL?.trim() || 'https://api.woovi.com';
    if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) throw invalid(`OPENPIX_BASE_URL must be an http(s) URL (got "${baseUrl}")`);
    const webhookPublicKey = env.OPENPIX_WEBHOOK_PUBLIC_KEY?.trim().replace(/\\n/g, '\n') || null;
    const webhookSecret = env.OPENPIX_WEBHOOK_SECRET?.trim() || null;
    openpix = { baseUrl: baseUrl.replace(/\/+$/, ''), appId: required('OPENPIX_APP_ID'), webhookPublicKey, webhookSecret };
  }
  return {
    card, cardSet, braintree, pix, pixSet, openpix,
    pixKey: env.PIX_KEY?.trim() || 'pix@inkpass.example',
    pixMerchantName: env.PIX_MERCHANT_NAME?.trim() || 'Inkpass',
    pixMerchantCity: env.PIX_MERCHANT_CITY?.trim() || 'Sao Paulo',
    pixExpiresSeconds: integer(env.PIX_EXPIRES_SECONDS, 'PIX_EXPIRES_SECONDS', 900, 10, 86_400),
  };
}

/**
 * The seller receipts name: a demo fills what is not set with DEMO_SELLER; production shows only
 * what is set (the site's name when no SELLER_NAME).
 * @param {NodeJS.ProcessEnv} env
 * @param {'demo' | 'production'} mode
 * @returns {SellerConfig}
 */
export function readSeller(env, mode) {
  /**
   * @param {string} name
   * @param {number} max
   * @param {string | null} fallback
   */
  const text = (name, max, fallback) => {
    const v = env[name]?.trim().replace(/\s+/g, ' ');
    if (!v) return fallback;
    if (v.length > max || /[\u0000-\u001f\u007f]/.test(v)) throw invalid(`${name} must be one line of at most ${max} characters (got "${env[name]}")`);
    return v;
  };
  const demo = mode === 'demo';
  return {
    name: text('SELLER_NAME', 120, demo ? DEMO_SELLER.name : null),
    address: text('SELLER_ADDRESS', 300, demo ? DEMO_SELLER.address : null),
    taxId: text('SELLER_TAX_ID', 64, demo ? DEMO_SELLER.taxId : null),
  };
}

/**
 * @typedef {object} S3StoreConfig
 * @property {'s3'} kind
 * @property {string} bucket
 * @property {string} prefix Without leading or trailing slash ('' for the whole bucket).
 * @property {string | null} endpoint S3_ENDPOINT: an S3-compatible service's URL; null: AWS for the region.
 * @property {string} region S3_REGION (default us-east-1).
 * @property {string | null} accessKeyId S3_ACCESS_KEY_ID; null with the secret: the SDK's own chain (instance role, AWS_* variables).
 * @property {string | null} secretAccessKey S3_SECRET_ACCESS_KEY
 * @property {boolean} forcePathStyle S3_FORCE_PATH_STYLE=1: `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO and most local services).
 */
/** @typedef {{ kind: 'disk' } | S3StoreConfig} MediaStoreConfig */

/**
 * Where media lives: MEDIA_STORE unset (or `disk`) is MEDIA_DIR; `s3://bucket/prefix` a bucket,
 * reached with the S3_* settings. Also reads `npm run media -- copy --to s3://…` (`store` given).
 * @param {NodeJS.ProcessEnv} env
 * @param {string} [store] MEDIA_STORE's value, when not from env
 * @returns {MediaStoreConfig}
 */
export function readMediaStore(env, store = env.MEDIA_STORE) {
  const raw = store?.trim() || '';
  if (!raw || raw === 'disk') return { kind: 'disk' };
  const m = /^s3:\/\/([^/]*)(?:\/(.*))?$/.exec(raw);
  if (!m) throw invalid(`MEDIA_STORE must be s3://bucket/prefix or disk (got "${raw}")`);
  const bucket = m[1] ?? '';
  // S3's bucket naming rules (the strict, DNS-compatible ones every service accepts).
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) {
    throw invalid(`MEDIA_STORE's bucket must be 3-63 lower-case letters, digits, dots and hyphens (got "${bucket}")`);
  }
  const prefix = (m[2] ?? '').replace(/\/+$/, '');
  if (prefix && (prefix.length > 200 || !prefix.split('/').every((p) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(p) && p !== '..'))) {
    throw invalid(`MEDIA_STORE's prefix must be folder names of letters, digits, ".", "_" and "-" separated by "/" (got "${m[2]}")`);
  }
  const endpoint = env.S3_ENDPOINT?.trim() || null;
  if (endpoint !== null && !/^https?:\/\/[^\s/?#]+\/?$/.test(endpoint)) throw invalid(`S3_ENDPOINT must be an http(s) URL without a path, such as https://s3.example.com (got "${endpoint}")`);
  const region = env.S3_REGION?.trim() || 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region)) throw invalid(`S3_REGION must be a region name such as eu-west-1 (got "${region}")`);
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || null;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || null;
  if (!!accessKeyId !== !!secretAccessKey) throw invalid('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the SDK\'s own credentials (an instance role, AWS_* variables)');
  return { kind: 's3', bucket, prefix, endpoint: endpoint?.replace(/\/$/, '') ?? null, region, accessKeyId, secretAccessKey, forcePathStyle: flag(env.S3_FORCE_PATH_STYLE, 'S3_FORCE_PATH_STYLE', false) };
}

/** @param {string} message */
function invalid(message) {
  return new Error(`Configuration: ${message}`);
}

/**
 * @param {string | undefined} raw
 * @param {string} name
 * @param {number} fallback
 * @param {number} min
 * @param {number} max
 */
function integer(raw, name, fallback, min, max) {
  const v = raw?.trim();
  if (!v) return fallback;
  if (!/^\d{1,9}$/.test(v) || Number(v) < min || Number(v) > max) throw invalid(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return Number(v);
}

/**
 * @param {string | undefined} raw
 * @param {string} name
 * @param {boolean} fallback
 */
function flag(raw, name, fallback) {
  const v = raw?.trim();
  if (!v) return fallback;
  if (v !== '0' && v !== '1') throw invalid(`${name} must be 1 or 0 (got "${raw}")`);
  return v === '1';
}

/**
 * COOKIE_DOMAIN: a registrable-looking domain name (two labels or more, not an address) that
 * every host in SITE_HOSTS belongs to. `localhost` is refused: browsers keep `localhost` and
 * `br.localhost` cookies apart whatever Domain says (docs/operations.md).
 * @param {string | undefined} raw
 * @param {string[]} siteHosts
 * @returns {string | null}
 */
export function readCookieDomain(raw, siteHosts) {
  const v = raw?.trim().toLowerCase().replace(/^\./, '');
  if (!v) return null;
  if (v === 'localhost' || v.endsWith('.localhost')) {
    throw invalid(`COOKIE_DOMAIN cannot be a localhost name (got "${raw}"): browsers never share cookies between localhost and br.localhost; leave it unset in development`);
  }
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
  if (v.length > 253 || !new RegExp(`^${label}(?:\\.${label})+$`).test(v)) {
    throw invalid(`COOKIE_DOMAIN must be a domain name such as inkpass.example, without scheme, port or path (got "${raw}")`);
  }
  if (/^[0-9.]+$/.test(v)) throw invalid(`COOKIE_DOMAIN must be a domain name, not an IP address (got "${raw}")`);
  for (const h of siteHosts) {
    if (h !== v && !h.endsWith(`.${v}`)) throw invalid(`COOKIE_DOMAIN "${v}" must contain every host in SITE_HOSTS, and ${h} is not in it`);
  }
  return v;
}

/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {Config}
 */
export function readConfig(env = process.env) {
  const rawMode = env.INKPASS_MODE?.trim().toLowerCase() || '';
  if (rawMode && rawMode !== 'demo' && rawMode !== 'production') throw invalid(`INKPASS_MODE must be demo or production (got "${env.INKPASS_MODE}")`);
  /** @type {'demo' | 'production'} */
  const mode = rawMode === 'production' ? 'production' : 'demo';
  const hostSet = !!env.HOST?.trim();
  const databaseUrl = env.DATABASE_URL?.trim() || 'file:./data/inkpass.db';
  if (!/^(file:|postgres(ql)?:\/\/|:memory:$)/.test(databaseUrl)) {
    throw invalid(`DATABASE_URL must start with file:, postgres:// or be :memory: (got "${databaseUrl}")`);
  }
  if (env.MEDIA_SECRET) throw invalid('MEDIA_SECRET is no longer read: set INKPASS_SECRET instead (docs/operations.md)');
  const secret = env.INKPASS_SECRET?.trim() || null;
  if (secret !== null && secret.length < SECRET_MIN_LENGTH) {
    throw invalid(`INKPASS_SECRET must be at least ${SECRET_MIN_LENGTH} characters (try: openssl rand -base64 32)`);
  }
  const countryHeader = env.COUNTRY_HEADER?.trim().toLowerCase() || null;
  if (countryHeader !== null && !/^[a-z0-9-]{1,64}$/.test(countryHeader)) {
    throw invalid(`COUNTRY_HEADER must be a header name such as cf-ipcountry (got "${env.COUNTRY_HEADER}")`);
  }
  const siteHosts = (env.SITE_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  for (const h of siteHosts) if (!/^[a-z0-9.-]{1,253}$/.test(h)) throw invalid(`SITE_HOSTS must list host names separated by commas (got "${h}")`);
  return {
    databaseUrl,
    mediaDir: path.resolve(env.MEDIA_DIR?.trim() || './data/media'),
    mediaStore: readMediaStore(env),
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    secret,
    countryHeader,
    bodyTimeoutMs: integer(env.BODY_TIMEOUT_MS, 'BODY_TIMEOUT_MS', 10_000, 100, 600_000),
    pgPoolMax: integer(env.PG_POOL_MAX, 'PG_POOL_MAX', 10, 1, 1000),
    trustProxy: flag(env.TRUST_PROXY, 'TRUST_PROXY', false),
    port: integer(env.PORT, 'PORT', 4321, 1, 65535),
    // A demo listens on this machine only unless told otherwise; a production server on every interface (behind its proxy).
    host: env.HOST?.trim() || (mode === 'demo' ? '127.0.0.1' : '0.0.0.0'),
    warmup: flag(env.WARMUP, 'WARMUP', true),
    pageCacheBytes: integer(env.PAGE_CACHE_MB, 'PAGE_CACHE_MB', 64, 0, 65_536) * 1024 * 1024,
    adMinSeconds: integer(env.AD_MIN_SECONDS, 'AD_MIN_SECONDS', 15, 1, 600),
    workers: integer(env.WORKERS, 'WORKERS', os.availableParallelism(), 1, 256),
    releaseCheckSeconds: integer(env.RELEASE_CHECK_SECONDS, 'RELEASE_CHECK_SECONDS', 60, 1, 3600),
    siteHosts,
    cookieDomain: readCookieDomain(env.COOKIE_DOMAIN, siteHosts),
    production: env.NODE_ENV === 'production',
    mode,
    modeSet: rawMode !== '',
    hostSet,
    payments: readPayments(env, mode),
    appCheck: readAppCheck(env, mode),
    welcomeXtraKeys: {
      1: integer(env.WELCOME_XTRA_KEYS_EN, 'WELCOME_XTRA_KEYS_EN', mode === 'demo' ? DEMO_WELCOME_XTRA_KEYS : 0, 0, 1000),
      3: integer(env.WELCOME_XTRA_KEYS_BR, 'WELCOME_XTRA_KEYS_BR', mode === 'demo' ? DEMO_WELCOME_XTRA_KEYS : 0, 0, 1000),
    },
    logLevel: readLogLevel(env.LOG_LEVEL),
    metricsToken: readMetricsToken(env.METRICS_TOKEN),
    seller: readSeller(env, mode),
    errors: readErrorReporting(env, mode),
    mail: readMail(env),
    push: readPush(env),
  };
}

/**
 * Whether a listening address reaches only this machine.
 * @param {string} host
 */
export function isLoopback(host) {
  const h = String(host).trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * The address a command on this machine reaches the server at (`npm run payments -- pay` delivers
 * its webhook there): PORT and HOST as the server reads them, with a wildcard HOST (every
 * interface) reached through loopback.
 * @param {Pick<Config, 'host' | 'port'>} c
 */
export function localOrigin(c) {
  const h = String(c.host).trim().replace(/^\[|\]$/g, '');
  const host = h === '0.0.0.0' || h === '::' || h === '' ? '127.0.0.1' : h;
  return `http://${host.includes(':') ? `[${host}]` : host}:${c.port}`;
}

/**
 * What stops a server from starting with this configuration, one line each naming what to
 * change (scripts/serve.mjs prints them and exits 1; `npm run doctor` prints them too). Facts
 * that need the database (a demo account in it) are added by the caller.
 * @param {Config} c
 * @returns {string[]}
 */
export function startupRefusals(c) {
  /** @type {string[]} */
  const out = [];
  if (!c.modeSet && !isLoopback(c.host)) {
    out.push(`INKPASS_MODE is not set and HOST=${c.host} is reachable from other machines: set INKPASS_MODE=production for a real shop, or INKPASS_MODE=demo to show the demo (sandboxes, demo accounts) on that address`);
  }
  // Each worker would open its own empty in-memory database and readers would land on any of them.
  if (c.workers > 1 && c.databaseUrl === ':memory:') out.push(`WORKERS=${c.workers} with DATABASE_URL=:memory: gives every worker a database of its own: set WORKERS=1, or use a file: or postgres:// database`);
  if (c.mode !== 'production') return out;
  if (c.payments.card === 'sandbox') out.push('PAYMENTS_CARD=sandbox takes test cards and moves no money: in production set PAYMENTS_CARD=braintree with its keys, or leave it unset to offer no card payments');
  if (c.payments.pix === 'sandbox') out.push('PAYMENTS_PIX=sandbox is a stand-in PSP: in production set PAYMENTS_PIX=openpix with its keys, or leave it unset to offer no Pix');
  if (c.payments.braintree?.environment === 'sandbox') out.push("BRAINTREE_ENVIRONMENT=sandbox (the default) is Braintree's test gateway, which takes test cards: in production set BRAINTREE_ENVIRONMENT=production");
  if (c.payments.openpix && /sandbox/i.test(c.payments.openpix.baseUrl)) out.push(`OPENPIX_BASE_URL=${c.payments.openpix.baseUrl} is a test PSP: in production use the live API (https://api.woovi.com)`);
  if (c.appCheck.setting === 'off') out.push('APP_CHECK=off turns the bot check before money calls off, which production always needs: remove APP_CHECK (or set it to on); a demo may run without it');
  if (c.secret === null && /^postgres/.test(c.databaseUrl)) out.push('INKPASS_SECRET is not set while DATABASE_URL is PostgreSQL: several processes must share one secret (openssl rand -base64 32, the same value on every process)');
  return out;
}

/** @type {Config} */
export const config = readConfig();
