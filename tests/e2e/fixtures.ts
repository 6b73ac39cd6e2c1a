/**
 * Shared pieces for the Playwright tests: the two sites' URLs, catalogue messages
 * (tests/support/messages.ts) and a `test` that fails on uncaught page errors.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import { test as base, expect, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { message as catalogueMessage } from '../support/messages';
import { solveAppCheck } from '../support/app-check';
import { APP_CHECK_HEADER } from '~/lib/app-check';
import { APP_CHECK_CHALLENGE_ENDPOINT } from '~/lib/paths';

/** Given, or chosen free by playwright.config.ts before the workers start (they inherit it). */
export const E2E_PORT = Number(process.env.INKPASS_E2E_PORT);
if (!Number.isInteger(E2E_PORT) || E2E_PORT <= 0) throw new Error('INKPASS_E2E_PORT is not set: run the e2e tests through `npx playwright test`, whose config chooses it');
/** The English site (Host localhost). */
export const baseUrl = `http://localhost:${E2E_PORT}`;
/** The Portuguese site: Chromium resolves *.localhost to loopback. */
export function brUrl(p = '/'): string {
  return `http://br.localhost:${E2E_PORT}${p}`;
}
export function enUrl(p = '/'): string {
  return `${baseUrl}${p}`;
}

export { message } from '../support/messages';

/** Entries pushed to window.dataLayer that are page_view events (object or gtag-style arguments). */
export function isPageView(entry: unknown): boolean {
  if (!entry || typeof entry !== 'object') return false;
  const e = entry as Record<string, unknown>;
  return e.event === 'page_view' || (e[0] === 'event' && e[1] === 'page_view');
}

/** A reader who signed up for this test alone, signed in in the test's browser context. */
export interface TestReader {
  email: string;
  password: string;
  name: string;
}

/**
 * Signs a reader in through the site's login form, as a person would (by the fields' labels), on
 * the English or the Portuguese host: the fixture's sign-up cookie belongs to the English host.
 */
export async function signIn(page: Page, site: 'en' | 'br', reader: Pick<TestReader, 'email' | 'password'>): Promise<void> {
  const locale = site === 'br' ? 'pt-BR' : 'en';
  // Each sign-in comes from its own address (the e2e server trusts the proxy header), as readers
  // do: the suite's sign-ins from one address would pass the per-address login limit (30 in 15
  // minutes), which tests/integration/auth.test.ts proves on its own.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `10.251.${(++signIns >> 8) & 255}.${signIns & 255}` });
  await page.goto((site === 'br' ? brUrl : enUrl)('/auth/login/'));
  const main = page.getByRole('main');
  await main.getByLabel(catalogueMessage(locale, 'auth.field.email')).fill(reader.email);
  await main.getByLabel(catalogueMessage(locale, 'auth.field.password')).fill(reader.password);
  await main.getByRole('button', { name: catalogueMessage(locale, 'auth.login.submit') }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/auth/'));
  await page.setExtraHTTPHeaders({});
}
let signIns = Math.floor(Math.random() * 60_000);

/** The header's account menu button of a signed-in reader (its name says whose account). */
export function accountButton(page: Page, locale: 'en' | 'pt-BR', name: string) {
  return page.getByRole('banner').getByRole('button', { name: catalogueMessage(locale, 'header.menu.label', { name }), exact: true });
}

/** Opens the header's account menu (favorites, history, log out… live in it). */
export async function openAccountMenu(page: Page, locale: 'en' | 'pt-BR', name: string): Promise<void> {
  const button = accountButton(page, locale, name);
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
}

let readers = 0;

/** The e2e server's database, opened once per worker for grants and staff (playwright.config.ts's DATABASE_URL). */
let e2eDb: Promise<import('~/server/db').DB> | undefined;
export async function e2eDatabase(): Promise<import('~/server/db').DB> {
  const { createDb } = await import('~/server/db');
  e2eDb ??= createDb('file:./data/e2e.db').then((r) => r.db);
  return e2eDb;
}

/**
 * Credits a reader with the ledger grant `npm run keys -- grant` makes: the same feature function
 * on the e2e server's database (SQLite in WAL mode takes a second writer), called in the worker
 * rather than through the command, whose start cost seconds of a busy machine per grant.
 */
export async function grantKeys(email: string, keys: number, xtra = 0): Promise<void> {
  const [{ findUserByEmail }, wallet] = await Promise.all([
    import('~/features/accounts/index.server'), import('~/features/wallet/index.server'),
  ]);
  const db = await e2eDatabase();
  const user = await findUserByEmail(db, email);
  expect(user, `the reader ${email}`).toBeTruthy();
  await wallet.grantKeys(db, { userId: user!.id, keys, xtra, reason: 'e2e test', key: `grant:${crypto.randomUUID()}`, now: Math.floor(Date.now() / 1000) });
}

let members = 0;
/**
 * A member of staff in a browser context of their own: signs up (from an address of their own,
 * so the per-address sign-up limit never trips), is given the capabilities through the accounts
 * door as `npm run user` would, then signs in on `site` through the login form (a fresh sign-in:
 * `money` asks for the password again after 15 minutes).
 */
export async function staffMember(browser: Browser, info: TestInfo, site: 'en' | 'br', capabilities: readonly ('support' | 'money')[]): Promise<{ context: BrowserContext; page: Page }> {
  const n = ++members;
  const member = { email: `desk-${info.workerIndex}-${n}-${Date.now().toString(36)}@example.test`, password: 'staff-horse-9' };
  const context = await browser.newContext();
  const res = await context.request.post(enUrl('/auth/signup/'), {
    form: { email: member.email, display_name: `Staff ${n}`, password: member.password, terms: '1' },
    headers: { origin: baseUrl, 'x-forwarded-for': `10.${200 + info.workerIndex}.${(n >> 8) & 255}.${n & 255}` },
    maxRedirects: 0,
  });
  expect(res.status(), 'the staff sign-up answers with a redirect').toBe(303);
  const [{ changeCapability }, { commandLineActor }] = await Promise.all([import('~/features/accounts/index.server'), import('~/server/audit')]);
  for (const capability of capabilities) {
    const result = await changeCapability(await e2eDatabase(), { email: member.email, capability, change: 'grant', actor: commandLineActor('admin') });
    expect(result.outcome, `granting ${capability}`).toBe('changed');
  }
  // Signed in by the sign-up; signed out again, to sign in through the login form as staff do.
  await context.clearCookies();
  const page = await context.newPage();
  await signIn(page, site, member);
  return { context, page };
}

/** Buys a key pack by card on `site` through the checkout, back on /my/purchases/. */
export async function buyByCard(page: Page, site: 'en' | 'br', pack: string): Promise<void> {
  const locale = site === 'br' ? 'pt-BR' : 'en';
  const m = (key: string, values?: Record<string, string | number>) => catalogueMessage(locale, key, values);
  await page.goto((site === 'br' ? brUrl : enUrl)(`/my/purchase/checkout/?pack=${pack}&next=${encodeURIComponent('/my/purchases/')}`));
  const coupon = page.getByRole('textbox', { name: m('checkout.coupon.label'), exact: true });
  // Chosen and typed once the checkout island has hydrated (hydration resets the server's fields).
  await expect(coupon.locator('xpath=ancestor::astro-island[1]')).not.toHaveAttribute('ssr');
  await page.getByRole('radio', { name: m('checkout.method.card'), exact: true }).check();
  await page.getByRole('textbox', { name: m('checkout.card.number') }).fill('4111 1111 1111 1111');
  await page.getByRole('textbox', { name: m('checkout.card.expiry') }).fill('12/30');
  await page.getByRole('textbox', { name: m('checkout.card.cvv') }).fill('123');
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/my/purchases/'),
    page.getByRole('button', { name: new RegExp(`^${catalogueMessage(locale, 'checkout.submit.pay', { total: '\u0000' }).split('\u0000').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`) }).click(),
  ]);
}

/**
 * The bot-check header for a money call a test makes itself, outside the islands (which solve
 * their own): a challenge from the e2e server, solved here.
 */
export async function appCheckHeader(page: Page): Promise<Record<string, string>> {
  const challenge = await page.request.get(enUrl(APP_CHECK_CHALLENGE_ENDPOINT));
  expect(challenge.status()).toBe(200);
  return { [APP_CHECK_HEADER]: await solveAppCheck(await challenge.json()) };
}

export const test = base.extend<{ pageErrors: Error[]; reader: TestReader }>({
  reader: async ({ page }, use, info) => {
    const n = ++readers;
    const reader = { email: `e2e-${info.workerIndex}-${n}-${Date.now().toString(36)}@example.test`, password: 'correct-horse-9', name: `Reader ${n}` };
    // Through the sign-up form's endpoint, as the browser posts it; the page shares the context's
    // cookies, so it is signed in. The e2e server trusts X-Forwarded-For (playwright.config.ts):
    // each reader comes from its own address, so the per-address sign-up limit never trips.
    const res = await page.request.post(enUrl('/auth/signup/'), {
      form: { email: reader.email, display_name: reader.name, password: reader.password, terms: '1' },
      headers: { origin: baseUrl, 'x-forwarded-for': `10.${info.workerIndex}.${(n >> 8) & 255}.${n & 255}` },
      maxRedirects: 0,
    });
    expect(res.status(), 'the sign-up answers with a redirect').toBe(303);
    await use(reader);
  },
  pageErrors: [
    async ({ page }, use) => {
      const errors: Error[] = [];
      page.on('pageerror', (e) => errors.push(e));
      await use(errors);
      expect(errors.map((e) => e.message), 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Horizontal overflow (how much wider than the viewport the page is), the page's own scroll
 * position, and the elements reaching furthest past the right edge, for failure messages.
 */
export function measureLayout(page: Page): Promise<{ overflow: number; scrollY: number; widest: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const clientWidth = root.clientWidth;
    const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
    const widest = [...document.body.querySelectorAll('*')]
      .map((el) => ({ el, right: el.getBoundingClientRect().right + scrollX }))
      .filter((x) => x.right > clientWidth + 1)
      .sort((a, b) => b.right - a.right)
      .slice(0, 5)
      .map((x) => `${describe(x.el)} (right ${Math.round(x.right)})`);
    return { overflow: root.scrollWidth - clientWidth, scrollY: Math.round(scrollY), widest };
  });
}

/** axe-core's browser build, read once per worker. */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on the page as it is now, one line each. The dark
 * theme changes colours only, so its scan is the contrast rule.
 *
 * axe-core itself rather than @axe-core/playwright: injected once per page load (a second scan of
 * the same page, the dark one, reuses it) and asked for violations only, a scan takes a third of
 * the builder's time on a two-core machine (measured: the home page 9 s → 4 s for both themes).
 * The pages scanned have no frames of their own to inject into.
 */
export async function axeProblems(page: Page, label: string, scheme: 'light' | 'dark'): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    (dark) => (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResults> } }).axe
      .run(document, { resultTypes: ['violations'], ...(dark ? { runOnly: { type: 'rule', values: ['color-contrast'] } } : {}) })
      .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target.map(String), summary: n.failureSummary ?? '' })) }))),
    scheme === 'dark',
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label} (${scheme}): ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}: ${v.nodes[0]?.summary.split('\n')[1]?.trim() ?? ''}`);
}

/**
 * Scrolls the home page to one of its later blocks (src/components/home-blocks.ts), or to all of
 * them in page order, until its fragment has replaced the link that stood in for it.
 */
export async function revealHomeBlocks(page: Page, block?: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const left = page.locator(block ? `[data-home-block="${block}"]` : '[data-home-block]');
    if ((await left.count()) === 0) return;
    // A block may be swapped in between two calls: then the next round looks again.
    const name = block ?? (await left.first().getAttribute('data-home-block', { timeout: 1000 }).catch(() => null));
    if (!name) continue;
    const box = page.locator(`[data-home-block="${name}"]`);
    await box.scrollIntoViewIfNeeded({ timeout: 2000 }).catch(() => { /* replaced meanwhile */ });
    await expect(box).toHaveCount(0);
  }
}

export { expect };
