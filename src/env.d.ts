/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    site: import('~/lib/site').Site;
    locale: import('~/lib/site').Locale;
    t: import('~/lib/i18n').T;
    /** 'dark' or 'light' from the theme cookies; 'auto' follows the system setting. */
    theme: import('~/lib/theme').ThemeSetting;
    /** The visitor confirmed being 18 or older (the `adult` cookie): adult series open without the gate. */
    adultConfirmed: boolean;
    /** Unix seconds at the start of the request: one "now" per request. */
    now: number;
    /** Where this request's cookies apply (src/lib/cookies.ts): Secure over https, Domain= when COOKIE_DOMAIN covers the host. */
    cookieScope: import('~/lib/cookies').CookieScope;
    /** ISO country code from the edge (CF-IPCountry / X-Country-Code), if any. */
    country: string | null;
    /** True when the response depends on the visitor (cookies), so it must not be shared-cached. */
    personalized: boolean;
    /** The signed-in reader (from the inkpass_session cookie) with their key balances from the ledger, or null. */
    user: import('~/features/accounts/index.server').SignedInReader | null;
    /** Id of the current session (public half of the token), or null. */
    sessionId: string | null;
    /** Set by scripts/serve.mjs: where the middleware leaves a page's compressed bytes (src/server/http.ts). */
    sink?: import('~/server/http').BodySink;
    /** Set by scripts/serve.mjs: the imports of each client entry script, for modulepreload links (src/server/module-preload.mjs). */
    modulePreloads?: import('~/server/module-preload.mjs').ModulePreloads;
    /** Set by scripts/serve.mjs: the middleware notes the route pattern and the reader's log id here for the request's log line (src/server/observe.mjs). */
    observe?: import('~/server/observe.mjs').RequestNote;
  }
}
