/**
 * Issue 31's moderation in the browser, on both sites, without JavaScript's help (the forms are
 * plain forms): three readers report a comment from the chapter's comments page; it disappears
 * for others (its author still sees it, waiting for review); a moderator restores it from the
 * studio's queue; a moderator bans its author, who then sees the ban's reason instead of the
 * comment form. Words from i18n/*.json.
 */
import type { Browser, BrowserContext, Page, TestInfo } from '@playwright/test';
import { axeProblems, brUrl, e2eDatabase, enUrl, expect, message, signIn, test } from './fixtures';

type Site = 'en' | 'br';
const localeOf = (site: Site) => (site === 'br' ? 'pt-BR' : 'en');
const urlOf = (site: Site) => (site === 'br' ? brUrl : enUrl);

let people = 0;
/**
 * A new account in a browser context of its own, from an address of its own: signed up on the
 * English host (the test runner's requests cannot resolve br.localhost; Chromium can), then signed
 * in on the Portuguese one through its login form.
 */
async function person(browser: Browser, info: TestInfo, site: Site, name: string, capabilities: 'moderation'[] = []): Promise<{ context: BrowserContext; page: Page; email: string; name: string }> {
  const n = ++people;
  const email = `mod-${site}-${info.workerIndex}-${n}-${Date.now().toString(36)}@example.test`;
  const context = await browser.newContext();
  const res = await context.request.post(enUrl('/auth/signup/'), {
    form: { email, display_name: name, password: 'correct-horse-9', terms: '1' },
    headers: { origin: new URL(enUrl('/')).origin, 'x-forwarded-for': `10.${170 + info.workerIndex}.${(n >> 8) & 255}.${n & 255}` },
    maxRedirects: 0,
  });
  expect(res.status(), `the sign-up of ${name}`).toBe(303);
  if (capabilities.length) {
    const [{ changeCapability }, { commandLineActor }] = await Promise.all([import('~/features/accounts/index.server'), import('~/server/audit')]);
    for (const capability of capabilities) await changeCapability(await e2eDatabase(), { email, capability, change: 'grant', actor: commandLineActor('admin') });
  }
  const page = await context.newPage();
  if (site === 'br') await signIn(page, 'br', { email, password: 'correct-horse-9' });
  return { context, page, email, name };
}

/** A chapter of this site's language that anyone may read (its comments need no keys). */
async function freeChapter(page: Page, site: Site): Promise<string> {
  const db = await e2eDatabase();
  const now = Math.floor(Date.now() / 1000);
  const rows = await db.selectFrom('chapters').select('e4pid').where('language', '=', site === 'br' ? 'pt-br' : 'en').where('released_at', '<=', now - 3600).orderBy('id', 'desc').limit(60).execute();
  for (const { e4pid } of rows) if ((await page.goto(urlOf(site)(`/api/reader/${e4pid}/manifest/`)))?.status() === 200) return e4pid;
  throw new Error(`no free chapter on ${site}`);
}

for (const site of ['en', 'br'] as const) {
  test(`${site}: three reports hide a comment from others, a moderator restores it from the queue, and a banned reader sees why`, async ({ browser }, info) => {
    test.setTimeout(90_000);
    const locale = localeOf(site);
    const m = (key: string, values?: Record<string, string | number>) => message(locale, key, values);
    const author = await person(browser, info, site, `Author ${site}`);
    const e4pid = await freeChapter(author.page, site);
    const commentsUrl = urlOf(site)(`/comments/${e4pid}/`);
    const text = `Moderate me ${site} ${Date.now().toString(36)}`;

    // The author comments through the page's form.
    await author.page.goto(commentsUrl);
    await author.page.getByLabel(m('comments.form.label'), { exact: true }).fill(text);
    await author.page.getByRole('button', { name: m('comments.form.submit') }).click();
    const mine = author.page.locator('article.c-item').filter({ hasText: text });
    await expect(mine).toBeVisible();
    const id = (await mine.getAttribute('id'))!.replace('c-', '');

    // Three readers report it, each with a reason, and are thanked.
    const reasons = ['spoiler', 'spam', 'harassment'] as const;
    for (const [i, reason] of reasons.entries()) {
      const r = await person(browser, info, site, `Reporter ${i}`);
      await r.page.goto(commentsUrl);
      const article = r.page.locator(`#c-${id}`);
      await article.getByText(m('moderation.report.summary'), { exact: true }).click();
      await article.getByRole('radio', { name: m(`moderation.reason.${reason}`) }).check();
      await article.getByRole('button', { name: m('moderation.report.submit') }).click();
      await expect(r.page.getByRole('status')).toContainText(m('moderation.report.done'));
      if (i < reasons.length - 1) await expect(r.page.locator(`#c-${id}`)).toBeVisible();
      else await expect(r.page.locator(`#c-${id}`)).toHaveCount(0);
      await r.context.close();
    }

    // Gone for others; its author still sees it, waiting for review.
    const other = await person(browser, info, site, `Other ${site}`);
    await other.page.goto(commentsUrl);
    await expect(other.page.getByText(text)).toHaveCount(0);
    await author.page.reload();
    await expect(author.page.locator(`#c-${id}`)).toContainText(m('moderation.held'));

    // A moderator restores it from the studio's queue.
    const mod = await person(browser, info, site, `Moderator ${site}`, ['moderation']);
    await mod.page.goto(urlOf(site)('/studio/'));
    await mod.page.getByRole('link', { name: m('studio.section.moderation') }).click();
    const item = mod.page.locator(`li.mod-item[data-id="${id}"]`);
    await expect(item).toContainText(text);
    await expect(item).toContainText(m('studio.moderation.reports', { count: 3 }));
    expect(await axeProblems(mod.page, 'moderation queue', 'light')).toEqual([]);
    await item.getByRole('button', { name: `${m('studio.moderation.action.restore')} #${id}` }).click();
    await expect(mod.page.getByRole('status')).toHaveText(m('studio.moderation.done.done'));
    await other.page.reload();
    await expect(other.page.locator(`#c-${id}`)).toContainText(text);
    // The report and mute forms on every comment pass axe, closed and open.
    await other.page.locator(`#c-${id}`).getByText(m('moderation.report.summary'), { exact: true }).click();
    for (const scheme of ['light', 'dark'] as const) expect(await axeProblems(other.page, 'comments with moderation forms', scheme)).toEqual([]);

    // The moderator bans the author for 7 days with a reason; the author sees it instead of the form.
    const reason = site === 'br' ? 'Spoilers de propósito' : 'Spoilers on purpose';
    await mod.page.goto(urlOf(site)(`/studio/moderation/?comment=${id}`));
    await mod.page.getByText(m('studio.moderation.ban', { name: author.name })).click();
    await mod.page.getByLabel(m('studio.moderation.banLength')).selectOption('7');
    await mod.page.getByLabel(m('studio.moderation.banReason')).fill(reason);
    await mod.page.getByRole('button', { name: m('studio.moderation.banSubmit') }).click();
    await expect(mod.page.getByRole('status')).toHaveText(m('studio.moderation.banned'));
    await expect(mod.page.getByRole('main')).toContainText(reason);
    await author.page.reload();
    await expect(author.page.locator('#comment-ban')).toContainText(reason);
    await expect(author.page.getByLabel(m('comments.form.label'), { exact: true })).toHaveCount(0);
    for (const c of [author, other, mod]) await c.context.close();
  });
}
