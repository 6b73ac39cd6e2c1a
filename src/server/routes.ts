/**
 * Every route that changes something or calls a payment provider, with its methods, its limit
 * and whether it needs a bot check: the one table the guard (methods, origin), the limiter and the
 * app check read. A route missing here answers 405 to anything but GET and HEAD; the architecture
 * test (src/server/routes.test.ts) finds every route file that takes a mutation, or that
 * writes on GET, and fails when it has no entry or its entry has neither a limit nor a reason to
 * be exempt. docs/operations.md ("Limits") lists the numbers.
 */
import type { LimitName } from './rate-limit';

/**
 * How a refusal is written for this route's callers: `json` ({detail}, the API's shape, plus
 * the subscription calls' `success`/`error`/`message`), `text` (the checkout island shows the
 * body under its field), `page` (a form without JavaScript: a small page in the site's language).
 */
export type AnswerKind = 'json' | 'text' | 'page';

export interface RoutePolicy {
  /** The whole path, trailing slash included. */
  path: RegExp;
  /** Methods the route takes. GET entries are reads that write or call a provider (polls): counted, never refused as a method. */
  methods: readonly ('GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE')[];
  /**
   * The limit, counted per reader; `anyone` also counts callers who are not signed in, per
   * address (routes for readers only answer those 401, or send them to the login page, before
   * writing anything). `exempt` says why a route has none of its own.
   */
  limit: { name: LimitName; anyone?: boolean } | { exempt: string };
  /**
   * The bot check (docs/decisions.md, "App check"): `required` refuses a call without a valid,
   * unused token; `beyond-rate` is for forms that work without JavaScript, which pass without a
   * token up to the appCheckFree limit per reader.
   */
  appCheck?: 'required' | 'beyond-rate';
  answer: AnswerKind;
}

export const ROUTES: readonly RoutePolicy[] = [
  { path: /^\/prefs\/(theme|adult)\/$/, methods: ['POST'], limit: { name: 'prefs', anyone: true }, answer: 'page' },
  { path: /^\/auth\/(login|signup|confirm)\/$/, methods: ['POST'], limit: { exempt: 'counted inside per email and per address (src/features/accounts/auth.server.ts): the email is in the body' }, answer: 'page' },
  // The forgotten password (issue 32): counted inside per email and per address, like the login.
  { path: /^\/auth\/password\/(forgot|reset\/[A-Za-z0-9_-]{1,100})\/$/, methods: ['POST'], limit: { exempt: 'counted inside per email and per address (src/features/accounts/recovery.server.ts); a reset link is a 256-bit single-use token' }, answer: 'page' },
  { path: /^\/auth\/email\/confirm\/[A-Za-z0-9_-]{1,100}\/$/, methods: ['POST'], limit: { exempt: 'a confirmation link: a 256-bit single-use token sent to the new address' }, answer: 'page' },
  { path: /^\/my\/account\/$/, methods: ['POST'], limit: { name: 'accountChanges' }, answer: 'page' },
  // Deleting the account (issue 32): asks the password, so it counts with the account page's forms.
  { path: /^\/my\/account\/delete\/$/, methods: ['POST'], limit: { name: 'accountChanges' }, answer: 'page' },
  { path: /^\/auth\/logout\/$/, methods: ['POST'], limit: { name: 'prefs', anyone: true }, answer: 'page' },
  { path: /^\/my\/favorites\/toggle\/$/, methods: ['POST'], limit: { name: 'library' }, answer: 'page' },
  { path: /^\/api\/(favorites\/[^/]+|purchases\/[^/]+\/favorite)\/$/, methods: ['POST', 'DELETE'], limit: { name: 'library' }, answer: 'json' },
  // Notifications (issue 32): the notify switch, marking read, the settings form; all come back to a page.
  { path: /^\/my\/notifications\/(notify|read|settings)\/$/, methods: ['POST'], limit: { name: 'library' }, answer: 'page' },
  // Web push (issue 32): this browser's subscription (JSON, from the notify button's or the settings' script) and the quiet hours form.
  { path: /^\/my\/notifications\/push\/$/, methods: ['POST', 'DELETE'], limit: { name: 'pushSubscriptions' }, answer: 'json' },
  { path: /^\/my\/notifications\/quiet\/$/, methods: ['POST'], limit: { name: 'library' }, answer: 'page' },
  // Comments (issue 31): writing a comment needs the bot check; likes, edits and deletes count in the same limit.
  // One comment per 20 s and 30 a day are counted inside (src/features/comments/comments.server.ts).
  { path: /^\/api\/comments\/[^/]+\/$/, methods: ['POST'], limit: { name: 'comments' }, appCheck: 'required', answer: 'json' },
  { path: /^\/api\/comments\/item\/[^/]+\/(like\/)?$/, methods: ['POST', 'PATCH', 'DELETE'], limit: { name: 'comments' }, answer: 'json' },
  // Comment moderation by readers (issue 31): reports (one per reader and comment) and mutes, as calls and as forms without JavaScript.
  { path: /^\/api\/comments\/item\/[^/]+\/(report|mute)\/$/, methods: ['POST', 'DELETE'], limit: { name: 'comments' }, answer: 'json' },
  { path: /^\/api\/comments\/mutes\/[^/]+\/$/, methods: ['POST', 'DELETE'], limit: { name: 'comments' }, answer: 'json' },
  { path: /^\/comments\/item\/[^/]+\/(report|mute)\/$/, methods: ['POST'], limit: { name: 'comments' }, answer: 'page' },
  { path: /^\/comments\/muted\/$/, methods: ['POST'], limit: { name: 'comments' }, answer: 'page' },
  // The comments page's form (works without JavaScript): comes back to the page.
  { path: /^\/comments\/[^/]+\/$/, methods: ['POST'], limit: { name: 'comments' }, appCheck: 'beyond-rate', answer: 'page' },
  { path: /^\/api\/progress\/$/, methods: ['POST'], limit: { name: 'progress', anyone: true }, answer: 'json' },
  { path: /^\/api\/redeem\/$/, methods: ['POST'], limit: { name: 'unlocks' }, appCheck: 'required', answer: 'json' },
  { path: /^\/api\/(daily-pass|rent)\/$/, methods: ['POST'], limit: { name: 'unlocks' }, answer: 'json' },
  { path: /^\/unlock\/$/, methods: ['POST'], limit: { name: 'unlocks' }, appCheck: 'beyond-rate', answer: 'page' },
  { path: /^\/api\/ads\/(start|complete)\/$/, methods: ['POST'], limit: { name: 'ads' }, answer: 'json' },
  { path: /^\/my\/purchase\/coupon\/$/, methods: ['POST'], limit: { name: 'payments' }, answer: 'text' },
  { path: /^\/my\/purchase\/pix\/$/, methods: ['POST'], limit: { name: 'charges' }, appCheck: 'required', answer: 'text' },
  { path: /^\/my\/purchase\/checkout\/$/, methods: ['POST'], limit: { name: 'payments' }, appCheck: 'required', answer: 'page' },
  { path: /^\/payments\/sandbox\/nonce\/$/, methods: ['POST'], limit: { name: 'payments' }, answer: 'json' },
  { path: /^\/my\/subscribe\/(pix|card)\/$/, methods: ['POST'], limit: { name: 'charges' }, appCheck: 'required', answer: 'json' },
  // The right of withdrawal: a refund asked of the provider, counted with new charges.
  { path: /^\/my\/purchases\/[^/]+\/withdraw\/$/, methods: ['POST'], limit: { name: 'charges' }, answer: 'page' },
  { path: /^\/my\/subscriptions\/(cancel|add)\/$/, methods: ['POST'], limit: { name: 'subscriptionChanges' }, answer: 'page' },
  { path: /^\/(api|sapi)\/subscription\/add-comic\/$/, methods: ['POST'], limit: { name: 'subscriptionChanges' }, answer: 'json' },
  // Staff (src/server/staff.ts checks the capability inside): link generation, spec section 7.
  { path: /^\/_\/dynamic_link\/$/, methods: ['POST'], limit: { name: 'staffLinks' }, answer: 'json' },
  // The studio's staff page: grant and revoke capabilities (admin), a form without JavaScript.
  { path: /^\/studio\/staff\/$/, methods: ['POST'], limit: { name: 'staffChanges' }, answer: 'page' },
  // Comment moderation (moderation): the queue's actions, bans, blocked words; forms without JavaScript.
  { path: /^\/studio\/moderation\/(bans\/|words\/)?$/, methods: ['POST'], limit: { name: 'moderationActions' }, answer: 'page' },
  // The support desk's actions on a reader (money): grant keys, sign out everywhere; forms without JavaScript.
  { path: /^\/studio\/readers\/[^/]+\/(grant|sign-out)\/$/, methods: ['POST'], limit: { name: 'deskActions' }, answer: 'page' },
  // The studio's chapter offers: price, availability, times (pricing), a form without JavaScript.
  // The support desk's payments (money acts; support asks a provider for a payment's status): forms without JavaScript.
  { path: /^\/studio\/payments\/([^/]+\/)?$/, methods: ['POST'], limit: { name: 'staffChanges' }, answer: 'page' },
  { path: /^\/studio\/prices\/chapter\/[^/]+\/$/, methods: ['POST'], limit: { name: 'staffChanges' }, answer: 'page' },
  { path: /^\/studio\/prices\/campaigns\/[^/]+\/$/, methods: ['POST'], limit: { name: 'staffChanges' }, answer: 'page' },
  // The studio's shop (pricing): key packs, coupons and plans ({packs,coupons,plans}/), created (new/) and saved ({id}/; another kind is the page's 404), forms without JavaScript.
  { path: /^\/studio\/shop\/[^/]+\/[^/]+\/$/, methods: ['POST'], limit: { name: 'staffChanges' }, answer: 'page' },
  // Chapter drafts (content): uploads (a new draft, more pages or a page replaced; the edge lets
  // these two take up to 300 MB), and the draft page's small forms (reorder, delete, fields).
  { path: /^\/studio\/chapters\/(new|drafts\/[^/]+\/pages)\/$/, methods: ['POST'], limit: { name: 'studioUploads' }, answer: 'page' },
  { path: /^\/studio\/chapters\/drafts\/[^/]+\/$/, methods: ['POST'], limit: { name: 'studioEdits' }, answer: 'page' },
  // The studio's series editor (content): create (new/) and save ({id}/; another segment is the page's 404), forms without JavaScript.
  { path: /^\/studio\/series\/[^/]+\/$/, methods: ['POST'], limit: { name: 'studioContent' }, answer: 'page' },
  // The series' images (content): one image per upload, sharp makes every size.
  { path: /^\/studio\/series\/[^/]+\/images\/$/, methods: ['POST'], limit: { name: 'studioImages' }, answer: 'page' },
  { path: /^\/webhooks\/pix\/$/, methods: ['POST'], limit: { exempt: "a payment provider's signed callback: the signature over the body authenticates it, and a provider retries what it is refused" }, answer: 'json' },
  // The browser's error tunnel (src/lib/error-handler.ts): at most 30 events a page, in batches.
  { path: /^\/api\/errors\/$/, methods: ['POST'], limit: { name: 'errorReports', anyone: true }, answer: 'json' },
  // The bot check's challenge (src/server/app-check.ts): signing one derives a key, so it is counted.
  { path: /^\/api\/app-check\/challenge\/$/, methods: ['GET'], limit: { name: 'appCheck', anyone: true }, answer: 'json' },
  // The home page's later blocks (src/pages/fragments/home/[block].astro): reads, about ten a home
  // page visit, counted per reader or address so a scraper cannot render them in a loop.
  { path: /^\/fragments\/home\/[^/]+\/$/, methods: ['GET'], limit: { name: 'homeFragments', anyone: true }, answer: 'page' },
  // The reader's data export (issue 32): a read, but it gathers every table of the reader, so few an hour.
  { path: /^\/my\/account\/export\/$/, methods: ['GET'], limit: { name: 'accountExport' }, answer: 'page' },
  // Reads that ask the provider: polled by the checkouts.
  { path: /^\/my\/purchase\/pix\/[^/]+\/$/, methods: ['GET'], limit: { name: 'polls' }, answer: 'json' },
  { path: /^\/my\/subscribe\/status\/[^/]+\/$/, methods: ['GET'], limit: { name: 'polls' }, answer: 'json' },
];

/**
 * Mutations that come from other servers, not from a browser on this site: a payment provider's
 * webhooks. They carry no Origin of ours; the provider's signature over the body authenticates
 * them (checked by the route, which answers 401 without it).
 */
export const SIGNED_CALLBACKS = /^\/webhooks\/pix\/$/;

/** The route's policy for this method, or undefined (a GET that writes nothing, or a method the route does not take). */
export function routePolicy(pathname: string, method: string): RoutePolicy | undefined {
  // HEAD runs a route's GET handler (a poll asks the provider either way), so it counts as one.
  const as = method === 'HEAD' ? 'GET' : method;
  return ROUTES.find((r) => r.path.test(pathname) && (r.methods as readonly string[]).includes(as));
}

/** Every method a path takes besides GET and HEAD (for 405's Allow header). */
export function mutationMethods(pathname: string): string[] {
  return ROUTES.filter((r) => r.path.test(pathname)).flatMap((r) => r.methods.filter((m) => m !== 'GET'));
}
