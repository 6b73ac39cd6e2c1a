/**
 * Issue 27's "Done when", on both sites: a member of staff holding only `content` and `pricing`
 * creates a series with English and Portuguese texts and a cover, uploads a 30-page CBZ,
 * reorders two pages, previews the draft in two reader modes, schedules it two minutes ahead
 * with a price; an anonymous visitor sees it in the schedule at once; then a second server over
 * the same database, its clock injected a few minutes ahead (tests/support/fake-clock.mjs),
 * sells it at its price, previews a campaign at the price the series page shows, and the
 * chapter row's "Copy link" copies a link that opens the chapter. Words from i18n/*.json.
 */
import type { Page } from '@playwright/test';
import { startFakeClockServer } from '../support/fake-clock-server';
import { makeImage, makeZip } from '../support/uploads';
import { brUrl, enUrl, expect, message, signIn, test } from './fixtures';

const PAGES = 30;
/** Page n (1-based) is `0nn.png`, 100 + n px wide: its width tells the pages apart in the preview. */
const pageWidth = (n: number) => 100 + n;


/** `YYYY-MM-DDTHH:mm`, the wall clock of `zone` at `ms`: what a datetime-local field takes. */
function wallClock(ms: number, zone: string): string {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
    .formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** The whole number in a price text ("3 KEYS", "2 keys"). */
const keysIn = (text: string | null) => Number(/\d+/.exec(text ?? '')?.[0] ?? NaN);

/** Grants capabilities through the accounts door, on the e2e database, as the command line would. */
async function grant(email: string, capabilities: readonly ('content' | 'pricing')[]): Promise<void> {
  const [{ createDb }, { changeCapability }, { commandLineActor }] = await Promise.all([
    import('~/server/db'), import('~/features/accounts/index.server'), import('~/server/audit'),
  ]);
  const { db } = await createDb('file:./data/e2e.db');
  let held: readonly string[] = [];
  for (const capability of capabilities) {
    const result = await changeCapability(db, { email, capability, change: 'grant', actor: commandLineActor('admin') });
    expect(result.outcome, `granting ${capability}`).toBe('changed');
    if (result.outcome === 'changed') held = result.capabilities;
  }
  expect([...held].sort(), 'the account holds only these').toEqual([...capabilities].sort());
}

/** The preview's page n (1-based) as the reader's stage shows it (hidden pages are not found). */
const previewPage = (page: Page, locale: 'en' | 'pt-BR', n: number) =>
  page.getByRole('img', { name: new RegExp(`${message(locale, 'reader.pageAlt', { series: '', chapter: '', page: n }).replace(/^, , /, ', ')}$`) });

// A browser on UTC: the English site's own zone, not the Brazilian one's, so the Portuguese run
// types its times on a clock other than the site's (the zone select moves them to the browser's).
test.use({ timezoneId: 'UTC' });

for (const [site, locale, url] of [['en', 'en', enUrl], ['br', 'pt-BR', brUrl]] as const) {
  test(`${site}: content and pricing staff publish a series and a scheduled chapter, which sells at its time, with a campaign and a share link`, async ({ page, reader, browser, context }) => {
    test.setTimeout(150_000);
    const m = (key: Parameters<typeof message>[1], values?: Record<string, string | number>) => message(locale, key, values);
    const stamp = `${site}${Date.now().toString(36)}`;
    const name = { original: `Tidewright ${stamp}`, en: `Tidewright ${stamp}`, pt: `Maré ${stamp}` };
    const title = `Low water ${stamp}`;
    await grant(reader.email, ['content', 'pricing']);
    if (site === 'br') await signIn(page, 'br', reader);

    let seriesId = 0;
    let slug = '';
    await test.step('creates and publishes a series with English and Portuguese texts', async () => {
      await page.goto(url('/studio/series/new/'));
      await page.getByLabel(m('studio.series.field.state'), { exact: true }).selectOption('ACTIVE');
      const languages = page.getByRole('group', { name: m('studio.series.field.languages') });
      await languages.getByRole('checkbox', { name: m('studio.series.language.en') }).check();
      await languages.getByRole('checkbox', { name: m('studio.series.language.ptBr') }).check();
      const original = page.getByRole('group', { name: m('studio.series.original') });
      await original.getByLabel(m('studio.series.field.name'), { exact: true }).fill(name.original);
      const en = page.getByRole('group', { name: m('studio.series.translation', { language: m('studio.series.language.en') }) });
      await en.getByLabel(m('studio.series.field.name'), { exact: true }).fill(name.en);
      await en.getByLabel(m('studio.series.field.description'), { exact: true }).fill('A harbour town where the sea keeps time.');
      const pt = page.getByRole('group', { name: m('studio.series.translation', { language: m('studio.series.language.ptBr') }) });
      await pt.getByLabel(m('studio.series.field.name'), { exact: true }).fill(name.pt);
      await pt.getByLabel(m('studio.series.field.description'), { exact: true }).fill('Uma cidade portuária onde o mar marca as horas.');
      await page.getByRole('button', { name: m('studio.series.create') }).click();
      await expect(page.getByText(m('studio.series.done.created'))).toBeVisible();
      seriesId = Number(/\/studio\/series\/(\d+)\//.exec(page.url())?.[1]);
      expect(seriesId).toBeGreaterThan(0);
      slug = await page.getByLabel(m('studio.series.field.slug'), { exact: true }).inputValue();
      expect(slug).not.toBe('');
    });
    const shownName = site === 'en' ? name.en : name.pt;

    await test.step('uploads a cover', async () => {
      await page.goto(url(`/studio/series/${seriesId}/images/`));
      const cover = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: m('studio.images.kind.cover'), exact: true }) });
      await cover.getByLabel(m('studio.images.file'), { exact: true }).setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await makeImage('png', 7, 700, 1000) });
      await cover.getByRole('button', { name: m('studio.images.upload') }).click();
      await expect(page.getByRole('status')).toHaveText(m('studio.images.done', { kind: m('studio.images.kind.cover') }));
      await expect(page.getByRole('img', { name: m('studio.images.current', { kind: m('studio.images.kind.cover') }) })).toBeVisible();
    });

    await test.step('uploads a 30-page CBZ, moves page 2 up and previews it in two reader modes', async () => {
      const cbz = await makeZip(await Promise.all(Array.from({ length: PAGES }, async (_, i) => ({
        name: `${String(i + 1).padStart(3, '0')}.png`, data: await makeImage('png', i + 1, pageWidth(i + 1), 150),
      }))));
      await page.goto(url(`/studio/chapters/new/?series=${seriesId}`));
      await page.getByLabel(m('studio.chapters.field.number'), { exact: true }).fill('1');
      await page.getByLabel(m('studio.chapters.field.title'), { exact: true }).fill(title);
      await page.getByLabel(m('studio.chapters.field.language'), { exact: true }).selectOption(site === 'en' ? 'en' : 'pt-br');
      await page.getByLabel(m('studio.chapters.field.files'), { exact: true }).setInputFiles({ name: 'chapter.cbz', mimeType: 'application/zip', buffer: cbz });
      await page.getByRole('button', { name: m('studio.chapters.create') }).click();
      await expect(page.getByRole('status')).toHaveText(m('studio.draft.done.created', { n: PAGES }));
      const pages = page.getByRole('list').filter({ has: page.getByRole('button', { name: m('studio.draft.up') }) }).getByRole('listitem');
      await expect(pages).toHaveCount(PAGES);
      await pages.nth(1).getByRole('button', { name: m('studio.draft.up') }).click();
      await expect(page.getByRole('status')).toHaveText(m('studio.draft.done.moved'));
      await expect(pages.nth(0)).toContainText(m('studio.draft.pageLabel', { page: 1, name: '002.png', width: pageWidth(2), height: 150 }));
      await expect(pages.nth(1)).toContainText(m('studio.draft.pageLabel', { page: 2, name: '001.png', width: pageWidth(1), height: 150 }));

      await page.getByRole('link', { name: m('studio.draft.preview') }).click();
      await expect(page).toHaveURL(/\/studio\/chapters\/drafts\/\d+\/preview\/$/);
      const chooseMode = async (mode: 'vertical' | 'ltr') => {
        await page.getByRole('button', { name: m('reader.settings') }).click();
        await page.getByRole('radio', { name: m(`reader.mode.${mode}`) }).check();
        await page.getByRole('button', { name: m('reader.settings') }).click();
        await expect(page.locator('#reader')).toHaveAttribute('data-mode', mode);
      };
      // Paged, left to right: page 1 is the moved page, the next one the page that was first.
      await chooseMode('ltr');
      await expect(page.getByText(m('reader.pageCounter', { page: 1, total: PAGES }))).toBeVisible();
      await expect(previewPage(page, locale, 1)).toHaveAttribute('width', String(pageWidth(2)));
      await page.keyboard.press('ArrowRight');
      await expect(page.getByText(m('reader.pageCounter', { page: 2, total: PAGES }))).toBeVisible();
      await expect(previewPage(page, locale, 2)).toHaveAttribute('width', String(pageWidth(1)));
      // Vertical scroll: every page in the new order.
      await chooseMode('vertical');
      for (const [n, was] of [[1, 2], [2, 1], [3, 3], [PAGES, PAGES]] as const) {
        await expect(previewPage(page, locale, n)).toHaveAttribute('width', String(pageWidth(was)));
      }
      await page.getByRole('link', { name: m('studio.draft.back') }).first().click();
      await expect(page).toHaveURL(/\/studio\/chapters\/drafts\/\d+\/$/);
    });

    let releaseMs = 0;
    await test.step('schedules it two minutes ahead at 3 keys', async () => {
      await page.getByLabel(m('studio.publish.price'), { exact: true }).fill('3');
      await page.getByRole('checkbox', { name: m('studio.publish.flag.purchase') }).check();
      const zone = await page.getByLabel(m('studio.prices.zoneField'), { exact: true }).inputValue();
      releaseMs = Math.ceil(Date.now() / 60_000) * 60_000 + 120_000;
      await page.getByRole('radio', { name: m('studio.publish.at') }).check();
      await page.getByRole('group', { name: m('studio.publish.release'), exact: true }).getByLabel(m('studio.publish.release'), { exact: true }).fill(wallClock(releaseMs, zone));
      await page.getByRole('button', { name: m('studio.publish.submit') }).click();
      await expect(page.getByRole('status')).toContainText(m('studio.publish.done', { when: '', utc: '' }).split(':')[0]!);
    });

    await test.step('an anonymous visitor sees it in the schedule at once', async () => {
      const anonymous = await browser.newContext();
      const visitor = await anonymous.newPage();
      await visitor.goto(url(site === 'en' ? '/schedule/' : '/calendario/'));
      await expect(visitor.getByRole('main')).toContainText(shownName);
      await anonymous.close();
    });

    // 90 s past the release (3.5 to 4.5 minutes ahead of now): the campaign form's "Preview prices
    // at" is the server's now to the minute, which must already be past the release's minute.
    const fake = await startFakeClockServer(Math.floor(releaseMs / 1000) + 90);
    try {
      const there = (p: string) => (site === 'en' ? `http://localhost:${fake.port}${p}` : `http://br.localhost:${fake.port}${p}`);
      const anonymous = await browser.newContext();
      const visitor = await anonymous.newPage();
      let previewed = NaN;
      await test.step('after its time, the series page sells it at 3 keys', async () => {
        await visitor.goto(there(`/comics/${slug}/`));
        const row = visitor.getByRole('listitem').filter({ hasText: title });
        await expect(row).toContainText(m('chapter.price.keys', { n: 3 }));
        await expect(row.getByRole('link', { name: m('chapter.loginToRead') })).toBeVisible();
      });

      await test.step('a campaign previews the price the series page shows', async () => {
        await page.goto(there(`/studio/prices/campaigns/new/?series=${seriesId}`));
        const zone = await page.getByLabel(m('studio.prices.zoneField'), { exact: true }).inputValue();
        await page.getByLabel(m('studio.campaign.name'), { exact: true }).fill(`Half off ${stamp}`);
        await page.getByLabel(m('studio.campaign.discount'), { exact: true }).fill('50');
        const now = releaseMs + 90_000;
        await page.getByLabel(m('studio.campaign.starts'), { exact: true }).fill(wallClock(now - 3_600_000, zone));
        await page.getByLabel(m('studio.campaign.ends'), { exact: true }).fill(wallClock(now + 86_400_000, zone));
        await page.getByRole('button', { name: m('studio.campaign.preview') }).click();
        const previewRow = page.getByRole('row').filter({ hasText: title });
        await expect(previewRow).toBeVisible();
        previewed = keysIn(await previewRow.getByRole('cell').nth(1).textContent());
        expect(previewed).toBeLessThan(3);
        await page.getByRole('button', { name: m('studio.prices.save') }).click();
        await expect(page.getByRole('status')).toHaveText(m('studio.campaigns.saved'));
        await visitor.goto(there(`/comics/${slug}/`));
        const row = visitor.getByRole('listitem').filter({ hasText: title });
        await expect(row).toContainText(m('chapter.price.keys', { n: previewed }));
      });

      await test.step('"Copy link" copies a link that opens the chapter', async () => {
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: there('').replace(/\/$/, '') });
        await page.goto(there(`/comics/${slug}/`));
        const row = page.getByRole('listitem').filter({ hasText: title });
        await row.getByRole('button', { name: new RegExp(`^${m('staff.link.copy')}: `) }).click();
        await expect(page.getByText(new RegExp(m('staff.link.copied', { link: '' }).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))).toBeVisible();
        const link = await page.evaluate(() => navigator.clipboard.readText());
        expect(link).toMatch(new RegExp(`^${there('/l/').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[A-Za-z0-9_-]{16}$`));
        await expect(page.getByText(m('staff.link.copied', { link }))).toBeVisible();
        await visitor.goto(link);
        await expect(visitor).toHaveURL(new RegExp(`/read/${slug}/[^/]+/[a-z-]+-1/$`));
        // The reader's locked view, at the campaign's price.
        const locked = m('reader.locked.price', { chapter: '\u0000', series: shownName, price: previewed });
        await expect(visitor.getByText(locked.slice(locked.indexOf('\u0000') + 1))).toBeVisible();
      });
      await anonymous.close();
    } finally {
      await fake.stop();
    }
  });
}
