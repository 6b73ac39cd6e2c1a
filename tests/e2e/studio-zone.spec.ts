/**
 * The studio's times are typed on the staff member's own clock (src/features/studio/ZoneSelect.astro):
 * without JavaScript a form's datetime-local fields are in the site's zone (Brasília on the
 * Portuguese site); with it they are rewritten once into the browser's zone, which the form then
 * sends, and name the same instants. A browser in New York on the Portuguese site.
 */
import { brUrl, expect, message, signIn, test } from './fixtures';

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
