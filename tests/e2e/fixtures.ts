/**
 * Shared pieces for the Playwright tests: the two sites' URLs, catalogue messages
 * (tests/support/messages.ts) and a `test` that fails on uncaught page errors.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
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
  await page.goto((site === 'br' ? brUrl : enUrl)('/auth/login/'));
  const main = page.getByRole('main');
  await main.getByLabel(catalogueMessage(locale, 'auth.field.email')).fill(reader.email);
  await main.getByLabel(catalogueMessage(locale, 'auth.field.password')).fill(reader.password);
  await main.getByRole('button', { name: catalogueMessage(locale, 'auth.login.submit') }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/auth/'));
}

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

/**
 * Credits a reader through the project's own command (`npm run keys -- grant`), on the e2e
 * server's database (playwright.config.ts): the same ledger grant staff use.
 */
export async function grantKeys(email: string, keys: number, xtra = 0): Promise<void> {
  const args = ['tsx', 'scripts/keys.ts', 'grant', '--email', email, '--reason', 'e2e test'];
  if (keys) args.push('--keys', String(keys));
  if (xtra) args.push('--xtra', String(xtra));
  await promisify(execFile)('npx', args, { env: { ...process.env, DATABASE_URL: 'file:./data/e2e.db' }, timeout: 60_000 });
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

/**
 * axe-core's serious and critical violations on the page as it is now, one line each. The dark
 * theme changes colours only, so its scan is the contrast rule.
 */
export async function axeProblems(page: Page, label: string, scheme: 'light' | 'dark'): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (scheme === 'dark') builder = builder.withRules(['color-contrast']);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label} (${scheme}): ${v.id} (${v.impact}) at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}: ${v.nodes[0]?.failureSummary?.split('\n')[1]?.trim() ?? ''}`);
}

export { expect };
