/**
 * The studio's times are typed on the staff member's own clock (src/features/studio/ZoneSelect.astro):
 * without JavaScript a form's datetime-local fields are in the site's zone (Brasília on the
 * Portuguese site); with it they are rewritten once into the browser's zone, which the form then
 * sends, and name the same instants. A browser in New York on the Portuguese site.
 */
import { brUrl, enUrl, expect, message, signIn, test } from './fixtures';

test.use({ timezoneId: 'America/New_York' });

/** The instant a datetime-local value names in a zone (the same rule as src/lib/dates.ts). */
async function instant(value: string, zone: string): Promise<number> {
  const { fromLocalInput } = await import('~/lib/dates');
  return fromLocalInput(value, zone)!;
}

test('a campaign form on the Portuguese site moves its times to the browser\'s zone, naming the same instants', async ({ page, reader, browser }) => {
  const seriesId = await (async () => {
    const [{ createDb }, { changeCapability }] = await Promise.all([import('~/server/db'), import('~/features/accounts/index.server')]);
    const { db } = await createDb('file:./data/e2e.db');
    await changeCapability(db, { email: reader.email, capability: 'pricing', change: 'grant', actor: { userId: null, capability: 'admin', ip: null, userAgent: null } });
    const row = await db.selectFrom('series').innerJoin('series_languages', 'series_languages.series_id', 'series.id').select('series.id').where('series_languages.site_id', '=', 3).where('series.state', '=', 'ACTIVE').orderBy('series.id').executeTakeFirstOrThrow();
    await db.destroy();
    return Number(row.id);
  })();
  await signIn(page, 'br', reader);
  const url = brUrl(`/studio/prices/campaigns/new/?series=${seriesId}`);
  const starts = message('pt-BR', 'studio.campaign.starts');
  const ends = message('pt-BR', 'studio.campaign.ends');
  const zone = message('pt-BR', 'studio.prices.zoneField');

  // Without JavaScript: the site's zone.
  const plain = await browser.newContext({ javaScriptEnabled: false, timezoneId: 'America/New_York', storageState: await page.context().storageState() });
  const plainPage = await plain.newPage();
  await plainPage.goto(url);
  await expect(plainPage.getByLabel(zone)).toHaveValue('America/Sao_Paulo');
  const sent = { starts: await plainPage.getByLabel(starts).inputValue(), ends: await plainPage.getByLabel(ends).inputValue() };
  await plain.close();

  // With it: the browser's zone, the same instants.
  await page.goto(url);
  await expect(page.getByLabel(zone)).toHaveValue('America/New_York');
  const shown = { starts: await page.getByLabel(starts).inputValue(), ends: await page.getByLabel(ends).inputValue() };
  expect(shown.starts).not.toBe(sent.starts);
  expect(await instant(shown.starts, 'America/New_York')).toBe(await instant(sent.starts, 'America/Sao_Paulo'));
  expect(await instant(shown.ends, 'America/New_York')).toBe(await instant(sent.ends, 'America/Sao_Paulo'));
});

test('a chapter upload shows its progress and lands on the draft, whose pages move by drag and drop', async ({ page, reader }) => {
  const seriesId = await (async () => {
    const [{ createDb }, { changeCapability }] = await Promise.all([import('~/server/db'), import('~/features/accounts/index.server')]);
    const { db } = await createDb('file:./data/e2e.db');
    await changeCapability(db, { email: reader.email, capability: 'content', change: 'grant', actor: { userId: null, capability: 'admin', ip: null, userAgent: null } });
    const row = await db.selectFrom('series').innerJoin('series_languages', 'series_languages.series_id', 'series.id').select('series.id').where('series_languages.site_id', '=', 1).where('series.state', '=', 'ACTIVE').orderBy('series.id', 'desc').executeTakeFirstOrThrow();
    await db.destroy();
    return Number(row.id);
  })();
  const { makeImage, makeZip } = await import('../support/uploads');
  const cbz = await makeZip(await Promise.all([1, 2, 3, 4].map(async (n) => ({ name: `${n}.png`, data: await makeImage('png', n, 200 + n, 300) }))));
  await page.goto(enUrl(`/studio/chapters/new/?series=${seriesId}`));
  await page.getByLabel(message('en', 'studio.chapters.field.number')).fill(`${8000 + Math.floor(Math.random() * 900)}.5`);
  await page.getByLabel(message('en', 'studio.chapters.field.files')).setInputFiles({ name: 'pages.cbz', mimeType: 'application/zip', buffer: cbz });
  // The upload's answer waits a moment, so that a fast machine cannot finish (and leave the page)
  // before the progress bar has been seen.
  await page.route(/\/studio\/chapters\/new\//, async (route) => {
    if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.getByRole('button', { name: message('en', 'studio.chapters.create') }).click();
  await expect(page.getByRole('progressbar', { name: message('en', 'studio.upload.progress') })).toBeVisible();
  await page.waitForURL(/\/studio\/chapters\/drafts\/\d+\/\?done=created/);
  const labels = page.locator('.draft-page-label');
  await expect(labels.first()).toContainText('1.png');
  await expect(page.getByText(message('en', 'studio.draft.dragHint'))).toBeVisible();
  await page.locator('li.draft-page').nth(3).dragTo(page.locator('li.draft-page').nth(0));
  await page.waitForURL(/done=moved/);
  await expect(labels).toHaveText([/^Page 1: 4\.png/, /^Page 2: 1\.png/, /^Page 3: 2\.png/, /^Page 4: 3\.png/]);
});
