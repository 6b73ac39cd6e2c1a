/**
 * Issue 30 in the browser: the language switch from a series the other site does not have (an
 * English-only series answers 404 on br.) lands on that site's home; and the series page's
 * 10-minute refresh for a signed-in reader renews an expired app token once and retries
 * (spec section 8), then says "Failed loading series content for {id}" when the episodes call
 * fails. The 10 minutes pass on the page's fake clock.
 */
import { DEMO } from '@db/seed/index';
import { brUrl, e2eDatabase, enUrl, expect, message, test } from './fixtures';

const TEN_MINUTES = 10 * 60_000;

test('the language switch from an English-only series goes to the Portuguese home', async ({ page }) => {
  // The blocked demo series has English chapters only (tests/integration/language-sites.test.ts).
  const path = `/comics/${DEMO.blocked}/`;
  await page.goto(enUrl(path));
  const link = page.getByRole('link', { name: message('en', 'header.language.switch') });
  // Without JavaScript the link is the same path; the check sends the reader home instead.
  await expect(link).toHaveAttribute('href', brUrl(path));
  await link.click();
  await page.waitForURL(brUrl('/'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
});

test('the series refresh renews an expired app token once, retries, and names the series when the call fails', async ({ page, reader }) => {
  void reader; // signed in through the fixture's sign-up cookie
  const db = await e2eDatabase();
  const { e4pid } = await db.selectFrom('series').select('e4pid').where('slug', '=', DEMO.readerManga).executeTakeFirstOrThrow();
  const tokens: string[] = [];
  const episodes: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/sapi/app/token')) tokens.push(url.pathname);
    if (/^\/api\/comic\/[^/]+\/episodes$/.test(url.pathname)) episodes.push(url.searchParams.get('token') ?? '');
  });
  let mode: 'expire-once' | 'pass' | 'fail' = 'expire-once';
  await page.route(/\/api\/comic\/[^/]+\/episodes/, async (route) => {
    if (mode === 'expire-once') {
      mode = 'pass';
      return route.fulfill({ status: 401, json: { detail: message('en', 'error.token.expired'), code: 'token_expired' } });
    }
    if (mode === 'fail') return route.fulfill({ status: 500, json: { detail: 'down' } });
    return route.continue();
  });
  await page.clock.install();
  await page.goto(enUrl(`/comics/${DEMO.readerManga}/`));
  const alert = page.getByRole('alert').filter({ hasText: /./ });

  await page.clock.runFor(TEN_MINUTES);
  // One token, refused as expired; one new token; the same call again with it, which passes.
  await expect.poll(() => episodes.length).toBe(2);
  expect(tokens).toHaveLength(2);
  await expect(page.getByText(message('en', 'series.seriesContentFailed', { id: e4pid }))).toBeHidden();

  mode = 'fail';
  await page.clock.runFor(TEN_MINUTES);
  await expect(alert).toHaveText(message('en', 'series.seriesContentFailed', { id: e4pid }));
  // A failure that is not an expired token is not retried with a new token.
  expect(tokens).toHaveLength(2);
  expect(episodes).toHaveLength(3);
});
