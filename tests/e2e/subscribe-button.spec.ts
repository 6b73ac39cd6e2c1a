/**
 * The series page's subscribe button in the browser, on both sites: a reader with a live plan
 * presses it, sees "Subscribing..." (disabled) while the call is under way, then "Series
 * subscribed" with the slots left; the page loads again 1.5 s later (on Playwright's clock) and
 * shows the series as subscribed, its subscription chapters marked "Subscribed". A reader without
 * a plan gets the server's message with the plans link, and the button back. The plan is given
 * by writing the subscription row into the e2e database, as the checkout would leave it.
 */
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { brUrl, enUrl, expect, message, signIn, test, type TestReader } from './fixtures';

const DB_FILE = 'data/e2e.db';

function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(DB_FILE);
  db.pragma('busy_timeout = 5000');
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** An active series with subscription chapters in a language, not blocked anywhere. */
function seriesWithSubscriptionChapters(language: string): string {
  const row = withDb((db) => db.prepare(`
    select s.slug from series s
    where s.state = 'ACTIVE' and s.geoblocks in ('[]', '') and s.adult = 0
      and exists (select 1 from chapters c where c.series_id = s.id and c.language = ? and c.subscription_enabled = 1 and c.released_at <= ?)
    order by s.id limit 1`).get(language, Math.floor(Date.now() / 1000)) as { slug: string } | undefined);
  if (!row) throw new Error(`the e2e database has no series with ${language} subscription chapters`);
  return `/comics/${row.slug}/`;
}

/** A live subscription to the site's 3-slot plan for the fixture's reader. */
function givePlan(reader: TestReader, siteId: 1 | 3): number {
  return withDb((db) => {
    const user = db.prepare('select id from users where email = ?').get(reader.email.toLowerCase()) as { id: number };
    const plan = db.prepare('select id, series_slots from plans where site_id = ? and code = ?').get(siteId, siteId === 1 ? 'reader' : 'leitor') as { id: number; series_slots: number };
    const t = Math.floor(Date.now() / 1000);
    db.prepare(`insert into subscriptions (public_id, user_id, site_id, plan_id, state, anchor_at, paid_until, cancel_at_period_end, method, provider, created_at, updated_at)
      values (?, ?, ?, ?, 'ACTIVE', ?, ?, 0, 'card', 'sandbox', ?, ?)`).run(`sbse2e${user.id}x${t}`, user.id, siteId, plan.id, t - 86_400, t + 30 * 86_400, t, t);
    return plan.series_slots;
  });
}

/** Holds the add-comic call until the test lets it go, so the pending state can be seen. */
async function holdAddComic(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route('**/api/subscription/add-comic', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

for (const site of ['en', 'br'] as const) {
  const url = site === 'en' ? enUrl : brUrl;
  const locale = site === 'en' ? 'en' : 'pt-BR';
  const siteId = site === 'en' ? 1 : 3;
  const label = message(locale, 'subscribe.button.label');

  test.describe(`the subscribe button (${site})`, () => {
    test.beforeEach(async ({ page, reader }) => {
      if (site === 'br') await signIn(page, 'br', reader);
    });

    test('a subscribed reader sees Subscribing..., then Series subscribed with the slots left, and the page reloads subscribed', async ({ page, reader }) => {
      const slots = givePlan(reader, siteId);
      const path = seriesWithSubscriptionChapters(site === 'en' ? 'en' : 'pt-br');
      await page.clock.install();
      await page.goto(url(path));
      const release = await holdAddComic(page);
      await page.evaluate(() => ((window as unknown as { beforeReload?: boolean }).beforeReload = true));
      // Time stands still from here: only runFor moves it, so a busy machine's slow steps below
      // cannot let the 1.5 s reload timer fire early (the subscribe call itself uses no timer).
      await page.clock.pauseAt(Date.now() + 1_000);

      await page.getByRole('button', { name: label }).click();
      const pending = page.getByRole('button', { name: message(locale, 'subscribe.button.pending') });
      await expect(pending).toBeVisible();
      await expect(pending).toBeDisabled();
      release();

      const done = page.getByRole('button', { name: message(locale, 'subscribe.button.done') });
      await expect(done).toBeVisible();
      await expect(done).toBeDisabled();
      const left = slots - 1 === 1 ? 'subscribe.slots.one' : 'subscribe.slots.other';
      await expect(page.getByRole('status').filter({ hasText: message(locale, left, { n: slots - 1 }) })).toBeVisible();
      // Not before the 1.5 s are up.
      await page.clock.runFor(1_000);
      expect(await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload)).toBe(true);
      const reloaded = page.waitForEvent('load');
      await page.clock.runFor(600);
      await reloaded;
      expect(await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload ?? false)).toBe(false);

      // Loaded again: the series shows as subscribed, no button, and its subscription chapters are open.
      await expect(page.getByRole('button', { name: label })).toHaveCount(0);
      await expect(page.getByText(message(locale, 'subscribe.button.done'), { exact: true })).toBeVisible();
      await expect(page.locator('li.chapter-row:visible').getByText(message(locale, 'chapter.subscribed'), { exact: true }).first()).toBeVisible();
    });

    test('a reader without a plan sees why, with the plans link, and gets the button back', async ({ page }) => {
      const path = seriesWithSubscriptionChapters(site === 'en' ? 'en' : 'pt-br');
      await page.goto(url(path));
      await page.getByRole('button', { name: label }).click();
      const alert = page.getByRole('alert').filter({ hasText: message(locale, 'subscribe.error.noPlan') });
      await expect(alert).toBeVisible();
      await expect(alert.getByRole('link', { name: message(locale, 'subscribe.button.plans') })).toHaveAttribute('href', '/plans/');
      await expect(page.getByRole('button', { name: label })).toBeEnabled();
    });
  });
}
