/**
 * Notifications (issue 32) in the browser, on both sites: a reader turns on "Notify me of new
 * chapters" on a series page (the no-JavaScript form posts and comes back), a chapter is released
 * (the fan-out runs in the worker on the e2e database with its clock a year ahead, so the
 * server's own once-a-minute check never sees it), and the header's bell shows the count and opens
 * the inbox with the item. The chapter is removed right after the fan-out; the item stays.
 */
import { DEMO } from '@db/seed/index';
import { brUrl, e2eDatabase, enUrl, expect, message, signIn, test } from './fixtures';

const SITES = [
  { site: 'en', locale: 'en', url: enUrl },
  { site: 'br', locale: 'pt-BR', url: brUrl },
] as const;

for (const s of SITES) {
  test(`notify a series, a chapter is released, the bell counts it and the inbox shows it (${s.site})`, async ({ page, reader }) => {
    if (s.site === 'br') await signIn(page, 'br', reader);
    await page.goto(s.url(`/comics/${DEMO.readerManga}/`));
    const name = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
    const bell = page.getByRole('banner').getByRole('link', { name: message(s.locale, 'bell.label', { count: 0 }), exact: true });
    await expect(bell).toBeVisible();

    await page.getByRole('button', { name: message(s.locale, 'notify.off'), exact: true }).click();
    const on = page.getByRole('button', { name: message(s.locale, 'notify.on'), exact: true });
    await expect(on).toHaveAttribute('aria-pressed', 'true');

    // A chapter comes out, a year from now by the fan-out's clock.
    const { fanOutReleases } = await import('~/features/notifications/index.server');
    const db = await e2eDatabase();
    const series = await db.selectFrom('series').select(['id']).where('slug', '=', DEMO.readerManga).executeTakeFirstOrThrow();
    const language = (await db.selectFrom('series_languages').select('language').where('series_id', '=', series.id).where('site_id', '=', s.site === 'br' ? 3 : 1).executeTakeFirstOrThrow()).language;
    const source = await db.selectFrom('chapters').selectAll().where('series_id', '=', series.id).where('language', '=', language).limit(1).executeTakeFirstOrThrow();
    const at = Math.floor(Date.now() / 1000) + 365 * 86_400 + Math.floor(Math.random() * 10_000);
    const number = 5000 + Math.floor(Math.random() * 4000);
    const { id: _id, ...copy } = source;
    const chapter = await db.insertInto('chapters')
      .values({ ...copy, e4pid: `EPI-e2e${at.toString(36)}${s.site}`, number, released_at: at, sale_at: at })
      .returning('id').executeTakeFirstOrThrow();
    try {
      await fanOutReleases(db, at - 60, at + 1);
    } finally {
      await db.deleteFrom('chapters').where('id', '=', chapter.id).execute();
    }

    await page.reload();
    const counted = page.getByRole('banner').getByRole('link', { name: message(s.locale, 'bell.label', { count: 1 }), exact: true });
    await expect(counted).toBeVisible();
    await expect(counted.locator('[data-bell-count]')).toHaveText('1');
    await counted.click();
    await expect(page).toHaveURL(/\/my\/notifications\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(message(s.locale, 'notifications.title'));
    const item = page.getByRole('link', { name: message(s.locale, 'notifications.chapter', { series: name, chapter: number }) });
    await expect(item).toBeVisible();

    await page.getByRole('button', { name: message(s.locale, 'notifications.markAll'), exact: true }).click();
    await expect(page.getByRole('banner').getByRole('link', { name: message(s.locale, 'bell.label', { count: 0 }), exact: true })).toBeVisible();
  });
}
