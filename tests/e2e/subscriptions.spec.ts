/**
 * Subscriptions from end to end (issue 15's Playwright journeys), as a reader sees them:
 * - a Portuguese reader picks a plan, pays its Pix charge (the sandbox PSP's payment through
 *   `npm run payments -- pay <check>`, seen by the checkout's 20 s poll, to which the test moves
 *   the browser's clock), lands on /my/subscriptions/ with the plan active, subscribes to a series
 *   with its button and reads one of its paid subscription chapters;
 * - the Pix code runs out: the browser's clock (Playwright's fake clock) passes `pix_expires_at`
 *   and the checkout says "QR Code expirado! Gere um novo pagamento." with the button for a new one;
 * - an English reader subscribes by card and rents a chapter with the plan from the unlock
 *   dialog: the chapter opens, the row and the reader say rented with its end, and
 *   /my/subscriptions/ counts the rental.
 * Series and chapters come from the e2e database (never hard-coded); each test has its own reader.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import type { Locator, Page } from '@playwright/test';
import { STATUS_POLL_MS } from '~/features/subscriptions';
import { brUrl, E2E_PORT, enUrl, expect, message, signIn, test, type TestReader } from './fixtures';

const pt = (key: string, values?: Record<string, string | number>) => message('pt-BR', key, values);
const en = (key: string, values?: Record<string, string | number>) => message('en', key, values);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const brl = (minor: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(minor / 100);
const usd = (minor: number) => new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).format(minor / 100);
const DB_FILE = 'data/e2e.db';
const DAY = 86_400;

function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(DB_FILE, { readonly: true });
  db.pragma('busy_timeout = 5000');
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

interface Plan { name: string; price: number; slots: number; rentals: number; rentTtl: number }

/** A seeded plan as the e2e database has it (name, price in minor units, slots, rentals a month and their length). */
function planOf(code: string): Plan {
  const row = withDb((db) => db.prepare('select name, price, series_slots as slots, rent_capacity as rentals, rent_ttl as rentTtl from plans where code = ?').get(code)) as Plan | undefined;
  if (!row) throw new Error(`the e2e database has no plan ${code}`);
  return row;
}

/** A message's text before its first placeholder, as a pattern for the start of a name. */
const startOf = (locale: 'en' | 'pt-BR', key: string, placeholder: string) =>
  new RegExp(`^${escapeRegExp(message(locale, key, { [placeholder]: '\u0000' }).split('\u0000')[0]!)}`);

/**
 * The series with the most paid chapters of a kind in a language (ACTIVE, not region-blocked by
 * the series or its publisher, not adult) and those chapters' ids, newest first. Released over a
 * week ago, so no simulpub free week makes them free during the test.
 */
function seriesWithPaidChapters(language: string, kind: 'subscription' | 'rental'): { path: string; e4pids: string[] } {
  const flag = kind === 'subscription' ? 'c.subscription_enabled = 1' : 'c.rental_enabled = 1 and c.subscription_enabled = 0';
  return withDb((db) => {
    const t = Math.floor(Date.now() / 1000);
    const where = `c.language = ? and ${flag} and c.original_price > 0 and c.released_at <= ? and (c.expired_at is null or c.expired_at > ?)
      and s.state = 'ACTIVE' and s.geoblocks in ('[]', '') and s.adult = 0 and s.all_free = 0
      and (s.publisher_id is null or exists (select 1 from publishers p where p.id = s.publisher_id and p.geoblocks in ('[]', '')))`;
    const args = [language, t - 8 * DAY, t + DAY];
    const series = db.prepare(`select s.id, s.slug from series s join chapters c on c.series_id = s.id where ${where} group by s.id order by count(*) desc, s.id limit 1`).get(...args) as { id: number; slug: string } | undefined;
    if (!series) throw new Error(`the e2e database has no series with paid ${language} ${kind} chapters`);
    const rows = db.prepare(`select c.e4pid from chapters c join series s on s.id = c.series_id where s.id = ? and ${where} order by c.released_at desc`).all(series.id, ...args) as { e4pid: string }[];
    // The reader's path names a chapter by its id without the EPI- prefix (readerPath).
    return { path: `/comics/${series.slug}/`, e4pids: rows.map((r) => r.e4pid.replace(/^EPI-/, '')) };
  });
}

/**
 * The first of `e4pids` the series page lists as a paid row the reader can open the unlock dialog
 * on (the pricing rule's strategy may make some free): its row, link and unlock button.
 */
async function paidRowOf(page: Page, e4pids: string[], unlockLabel: string): Promise<{ row: Locator; href: string; unlock: Locator }> {
  const unlock = page.getByRole('button', { name: new RegExp(`^${escapeRegExp(unlockLabel)}\\s*:`) });
  const rows = page.getByRole('listitem').filter({ has: unlock }).filter({ visible: true });
  await expect(rows.first()).toBeVisible();
  const hrefs = await rows.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  const href = hrefs.find((h) => e4pids.some((id) => h.includes(`/${id}/`)));
  if (!href) throw new Error(`none of the ${e4pids.length} chapters is a paid row on ${page.url()}`);
  const row = page.getByRole('listitem').filter({ has: page.locator(`a[href="${href}"]`) });
  return { row, href, unlock: row.getByRole('button', { name: new RegExp(`^${escapeRegExp(unlockLabel)}\\s*:`) }) };
}

/** The reader shows the chapter's pages: the pages region, its first image loaded, no locked notice. */
async function expectPages(page: Page, locale: 'en' | 'pt-BR') {
  const pages = page.getByRole('region', { name: startOf(locale, 'reader.pagesLabel', 'chapter') });
  await expect(pages).toBeVisible();
  const first = pages.getByRole('img').first();
  await expect(first).toBeVisible();
  await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { message: 'the first page image loads' }).toBe(true);
  await expect(page.getByRole('button', { name: new RegExp(`^${escapeRegExp(message(locale, 'chapter.unlock'))}\\s*:`) })).toHaveCount(0);
}

/**
 * Opens the plan's checkout (its URL names it), fills the payer's name and CPF and presses Enter;
 * returns the Pix call's answer once the QR and its copy-and-paste code show.
 */
async function startPixCheckout(page: Page, code: string, plan: Plan) {
  await page.goto(brUrl(`/plans/?tier=${code}`));
  const dialog = page.getByRole('dialog', { name: pt('subscribe.checkout.title', { plan: plan.name }) });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: pt('subscribe.checkout.name') }).fill('Maria da Silva');
  const doc = dialog.getByRole('textbox', { name: pt('subscribe.checkout.doc') });
  await doc.pressSequentially('52998224725');
  await expect(doc).toHaveValue('529.982.247-25');
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/my/subscribe/pix/'),
    doc.press('Enter'),
  ]);
  expect(answer.status()).toBe(200);
  const body = (await answer.json()) as { check: string; first_payment: boolean; pix_expires_at: string };
  expect(body.first_payment).toBe(true);
  const pix = dialog.getByRole('region', { name: pt('checkout.pix.title', { total: brl(plan.price) }) });
  await expect(pix.getByRole('img', { name: pt('purchase.pix.qrLabel') })).toBeVisible();
  await expect(pix.getByRole('textbox', { name: pt('checkout.pix.code') })).toHaveValue(/^000201.*6304[0-9A-F]{4}$/);
  return { dialog, pix, body };
}

test.describe('subscriptions from end to end (br)', () => {
  test('Pix: a reader pays a plan, lands on the subscription, subscribes to a series and reads its subscription chapter', async ({ page, reader }) => {
    test.setTimeout(75_000);
    const plan = planOf('leitor');
    const series = seriesWithPaidChapters('pt-br', 'subscription');
    // The browser's clock, so the test moves to the checkout's next poll instead of waiting 20 s.
    await page.clock.install();
    await signIn(page, 'br', reader);
    const { dialog, body } = await startPixCheckout(page, 'leitor', plan);

    // The payer pays: the sandbox PSP marks the charge paid and delivers its webhook; the
    // checkout's 20 s poll sees it, confirms, and goes to the subscription.
    await promisify(execFile)('npm', ['run', '--silent', 'payments', '--', 'pay', body.check, '--url', `http://127.0.0.1:${E2E_PORT}`], {
      env: { ...process.env, DATABASE_URL: `file:./${DB_FILE}`, MEDIA_DIR: process.env.INKPASS_TEST_MEDIA_DIR || 'data/test-media', PORT: String(E2E_PORT) },
      timeout: 60_000,
    });
    await page.clock.fastForward(STATUS_POLL_MS);
    await expect(dialog.getByRole('status')).toContainText(pt('subscribe.checkout.paid'));
    await page.waitForURL(brUrl('/my/subscriptions/'), { timeout: 5_000 });
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: plan.name, exact: true })).toBeVisible();
    await expect(page.getByTestId('subscription-state')).toHaveText(pt('subscriptions.state.active'));
    const slots = main.getByRole('region', { name: pt('subscriptions.slots.title') });
    await expect(slots).toContainText(pt('subscriptions.slots.count', { used: 0, total: plan.slots, left: plan.slots }));

    // A series with paid subscription chapters: locked before subscribing.
    await page.goto(brUrl(series.path));
    const { row, href, unlock } = await paidRowOf(page, series.e4pids, pt('chapter.unlock'));
    await expect(unlock).toBeVisible();
    await expect(row.getByText(pt('chapter.subscribed'), { exact: true })).toHaveCount(0);

    // The subscribe button: "Assinando..." (held here so it can be seen), then "Série Assinada"
    // with the slots left, and the page loads again by itself.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/subscription/add-comic', async (route) => {
      await held;
      await route.continue();
    });
    const label = pt('subscribe.button.label');
    await page.getByRole('button', { name: label }).click();
    const pending = page.getByRole('button', { name: pt('subscribe.button.pending') });
    await expect(pending).toBeVisible();
    await expect(pending).toBeDisabled();
    const reloaded = page.waitForEvent('load');
    release();
    await expect(page.getByRole('button', { name: pt('subscribe.button.done') })).toBeDisabled();
    await expect(page.getByRole('status').filter({ hasText: pt(plan.slots - 1 === 1 ? 'subscribe.slots.one' : 'subscribe.slots.other', { n: plan.slots - 1 }) })).toBeVisible();
    await reloaded;

    // Loaded again: subscribed, no button, and the chapter's row says so instead of its price.
    await expect(page.getByRole('button', { name: label })).toHaveCount(0);
    await expect(page.getByText(pt('subscribe.button.done'), { exact: true })).toBeVisible();
    await expect(row.getByText(pt('chapter.subscribed'), { exact: true })).toBeVisible();
    await expect(unlock).toHaveCount(0);

    // The chapter opens with its pages.
    await Promise.all([page.waitForURL(brUrl(href)), row.getByRole('link').click()]);
    await expectPages(page, 'pt-BR');
    // The chapter's own state is in the reader's top bar (the end card may say the next one's).
    await expect(page.locator('#reader-top').getByText(pt('chapter.subscribed'), { exact: true })).toBeVisible();

    // The subscription lists the series in its slots.
    await page.goto(brUrl('/my/subscriptions/'));
    await expect(slots).toContainText(pt('subscriptions.slots.count', { used: 1, total: plan.slots, left: plan.slots - 1 }));
    await expect(slots.getByRole('link')).toHaveAttribute('href', series.path);
  });

  test('a Pix code that runs out says so and offers a new payment (the browser clock passes pix_expires_at)', async ({ page, reader }) => {
    await page.clock.install();
    await signIn(page, 'br', reader);
    const { dialog, pix, body } = await startPixCheckout(page, 'leitor', planOf('leitor'));
    const timer = pix.getByRole('timer');
    const [before, after] = pt('checkout.pix.expiresIn', { time: '\u0000' }).split('\u0000').map(escapeRegExp);
    await expect(timer).toHaveText(new RegExp(`^${before}\\d\\d:\\d\\d${after}$`));
    await expect(dialog.getByRole('alert')).toHaveCount(0);

    // The reader leaves the page open past the expiry (the "laptop lid" closed, then opened).
    const expiresAt = Date.parse(body.pix_expires_at);
    const browserNow = await page.evaluate(() => Date.now());
    expect(expiresAt - browserNow).toBeGreaterThan(10_000);
    await page.clock.fastForward(expiresAt - browserNow + 1_000);

    await expect(pix.getByRole('alert')).toHaveText(pt('checkout.pix.expired'));
    const again = pix.getByRole('button', { name: pt('subscribe.checkout.newPayment') });
    await expect(again).toBeEnabled();
    await expect(again).toBeFocused();
    await expect(timer).toHaveCount(0);
    await expect(pix.getByRole('button', { name: pt('checkout.pix.copy') })).toBeDisabled();

    // The button asks for a new charge: a new check and its own code replace the dead one. (Its
    // countdown is not judged here: the browser's clock is now a code's lifetime ahead of the
    // server's, so any code the server makes looks expired to it.)
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/my/subscribe/pix/'),
      again.click(),
    ]);
    expect(answer.status()).toBe(200);
    const renewed = (await answer.json()) as { success: boolean; check: string; pix_copia_e_cola: string };
    expect(renewed.success).toBe(true);
    expect(renewed.check).not.toBe(body.check);
    await expect(pix.getByRole('textbox', { name: pt('checkout.pix.code') })).toHaveValue(renewed.pix_copia_e_cola);
  });
});

test.describe('subscriptions from end to end (en)', () => {
  test('Escape closes the checkout and takes ?tier= out of the address, so a reload does not reopen it; the plan link opens it again', async ({ page, reader: _signedIn }) => {
    const plan = planOf('reader');
    await page.goto(enUrl('/plans/?tier=reader'));
    const dialog = page.getByRole('dialog', { name: en('subscribe.checkout.title', { plan: plan.name }) });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(dialog).toBeHidden();
    // The plan's own link still opens it, and the address names the plan again.
    await page.locator('a[data-tier="reader"]').click();
    await expect(dialog).toBeVisible();
    await expect.poll(() => new URL(page.url()).searchParams.get('tier')).toBe('reader');
  });

  test('card: a reader subscribes, rents a chapter with the plan from the unlock dialog, and reads it until the rental ends', async ({ page, reader: _signedIn }) => {
    const plan = planOf('reader');
    const series = seriesWithPaidChapters('en', 'rental');
    await page.goto(enUrl('/plans/?tier=reader'));
    const dialog = page.getByRole('dialog', { name: en('subscribe.checkout.title', { plan: plan.name }) });
    await expect(dialog.getByRole('radio', { name: en('checkout.method.card'), exact: true })).toBeChecked();
    await dialog.getByRole('textbox', { name: en('checkout.card.number') }).fill('4111 1111 1111 1111');
    await dialog.getByRole('textbox', { name: en('checkout.card.expiry') }).fill('12/30');
    await dialog.getByRole('textbox', { name: en('checkout.card.cvv') }).fill('123');
    await dialog.getByRole('button', { name: en('subscribe.checkout.submit', { price: usd(plan.price) }) }).click();
    await expect(dialog.getByRole('status')).toContainText(en('subscribe.checkout.paid'));
    await page.waitForURL(enUrl('/my/subscriptions/'));
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: plan.name, exact: true })).toBeVisible();
    await expect(page.getByTestId('subscription-state')).toHaveText(en('subscriptions.state.active'));
    const rentals = main.getByRole('region', { name: en('subscriptions.rentals.title') });
    await expect(rentals).toContainText(en('subscriptions.rentals.count', { used: 0, capacity: plan.rentals }));

    // A paid chapter the plan can rent: its unlock dialog offers the plan rental.
    await page.goto(enUrl(series.path));
    const { row, href, unlock } = await paidRowOf(page, series.e4pids, en('chapter.unlock'));
    await unlock.click();
    const unlockDialog = page.getByRole('dialog', { name: startOf('en', 'unlock.title', 'chapter') });
    await expect(unlockDialog).toBeVisible();
    await expect(unlockDialog).toContainText(en('unlock.orPlan'));
    const rent = unlockDialog.getByRole('button', { name: en('unlock.rent', { n: plan.rentals }) });
    const rentedAt = Math.floor(Date.now() / 1000);
    await Promise.all([page.waitForURL(enUrl(href)), rent.click()]);

    // The chapter opens with its pages, rented for the plan's rental time (days).
    await expectPages(page, 'en');
    const ends = (at: Locator | Page) => at.getByText(en('chapter.rented'), { exact: true });
    const endsIn = new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(Math.round(plan.rentTtl / DAY), 'day');
    const readerRental = page.getByRole('main').getByRole('paragraph').filter({ has: ends(page) });
    await expect(readerRental).toHaveText(new RegExp(`${escapeRegExp(en('chapter.rented'))}\\s*${escapeRegExp(en('chapter.ends', { when: endsIn }))}`));
    const until = Date.parse((await readerRental.locator('time').getAttribute('datetime'))!) / 1000;
    expect(until - rentedAt).toBeGreaterThanOrEqual(plan.rentTtl - 60);
    expect(until - rentedAt).toBeLessThanOrEqual(plan.rentTtl + 60);

    // Back on the series page the row says rented, with its end, and no longer offers the dialog.
    await page.goto(enUrl(series.path));
    await expect(ends(row)).toBeVisible();
    await expect(row).toContainText(en('chapter.ends', { when: endsIn }));
    await expect(unlock).toHaveCount(0);

    // The subscription counts the rental in this plan month.
    await page.goto(enUrl('/my/subscriptions/'));
    await expect(rentals).toContainText(en('subscriptions.rentals.count', { used: 1, capacity: plan.rentals }));
    // ...and says which chapter it went to, and until when.
    await expect(rentals.getByRole('link')).toHaveAttribute('href', href);
    await expect(rentals).toContainText(en('subscriptions.rentals.until', { date: '\u0000' }).split('\u0000')[0]!);
  });
});
