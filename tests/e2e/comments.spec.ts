/**
 * Comments in the browser, on both sites (issue 31): a reader who can read a chapter comments
 * with a spoiler (hidden until tapped), replies, likes and edits within the window, and no longer
 * after it (a second server over the same database, its clock eleven minutes ahead); the reader page loads
 * the comments block only when the reader scrolls near it; a reader who cannot read a chapter is
 * told why and how to read it.
 */
import type { Page } from '@playwright/test';
import { startFakeClockServer } from '../support/fake-clock-server';
import { axeProblems, brUrl, e2eDatabase, enUrl, expect, message, signIn, test } from './fixtures';

/**
 * A released chapter of the site's language the reader can read (its manifest answers 200), or
 * one locked for them (403, and its comments page offers the way to read it: not a chapter
 * unavailable here), asked from the browser on the site's own host.
 */
async function chapterWith(page: Page, site: 'en' | 'br', status: 200 | 403): Promise<string> {
  const db = await e2eDatabase();
  const now = Math.floor(Date.now() / 1000);
  const rows = await db.selectFrom('chapters').select('e4pid').where('language', '=', site === 'br' ? 'pt-br' : 'en').where('released_at', '<=', now - 3600).orderBy('id', 'desc').limit(150).execute();
  const locale = site === 'br' ? 'pt-BR' : 'en';
  await page.goto((site === 'br' ? brUrl : enUrl)('/robots.txt'));
  const found = await page.evaluate(async ({ ids, status, readLabel }) => {
    for (const id of ids) {
      if ((await fetch(`/api/reader/${id}/manifest/`)).status !== status) continue;
      if (status === 200) return id;
      if ((await (await fetch(`/comments/${id}/`)).text()).includes(readLabel)) return id;
    }
    return null;
  }, { ids: rows.map((r) => r.e4pid), status, readLabel: message(locale, 'comments.closed.read') });
  if (!found) throw new Error(`no ${site} chapter answering ${status}`);
  return found;
}

/** Forgets the reader's one-comment-per-20-seconds counter (the limit has its own integration test). */
async function forgetBurst(email: string): Promise<void> {
  const db = await e2eDatabase();
  const { findUserByEmail } = await import('~/features/accounts/index.server');
  const user = await findUserByEmail(db, email);
  await db.deleteFrom('rate_limits').where('bucket', 'like', `comments:burst:${user!.id}`).execute();
}

/** The site's words and URLs, with the fixture's reader signed in there (the fixture signs in on the English site). */
async function onSite(page: Page, site: 'en' | 'br', reader: Parameters<typeof signIn>[2]) {
  const locale = site === 'br' ? 'pt-BR' : 'en';
  if (site === 'br') await signIn(page, 'br', reader);
  return { m: (key: string, values?: Record<string, string | number>) => message(locale, key, values), url: site === 'br' ? brUrl : enUrl };
}

for (const site of ['en', 'br'] as const) {
  test(`${site}: a reader comments with a spoiler, replies, likes and edits within the window only`, async ({ page, reader }) => {
    test.setTimeout(90_000);
    const { m, url } = await onSite(page, site, reader);
    const free = await chapterWith(page, site, 200);
    await page.goto(url(`/comments/${free}/`));
    const main = page.getByRole('main');

    await main.getByLabel(m('comments.form.label')).fill('What a chapter! ||The mentor was the traitor||');
    await main.getByRole('button', { name: m('comments.form.submit') }).click();
    await page.waitForURL(/#c-\d+$/);
    const id = /#c-(\d+)$/.exec(page.url())![1]!;
    const mine = page.locator(`#c-${id}`);
    await expect(mine.locator('> .c-body')).toContainText('What a chapter!');
    // The spoiler stays hidden until tapped.
    const spoiler = mine.locator('> .c-body details.c-spoiler');
    await expect(spoiler).not.toHaveAttribute('open', /.*/);
    await expect(spoiler.locator('summary')).toHaveText(m('comments.spoiler.show'));
    await spoiler.locator('summary').click();
    await expect(spoiler).toHaveAttribute('open', '');
    await expect(mine.locator('> .c-body').getByText('The mentor was the traitor')).toBeVisible();

    // A reply, in place (no page load: the thread is swapped from the server's answer), focus on it.
    await forgetBurst(reader.email);
    const before = page.url();
    await page.evaluate(() => { (window as unknown as { stayed: boolean }).stayed = true; });
    await mine.getByText(m('comments.reply'), { exact: true }).click();
    await mine.getByLabel(m('comments.form.replyLabel', { name: reader.name })).fill('Replying to myself');
    await mine.getByRole('button', { name: m('comments.form.replySubmit') }).click();
    await expect(page.locator(`#c-${id} .c-replies`)).toContainText('Replying to myself');
    await expect(page.locator(`#c-${id} > .c-replies > .c-item`).last()).toBeFocused();

    // A like, counted once and shown pressed, in place too, focus kept on the button.
    const like = page.locator(`#c-${id} > .c-actions .c-like`);
    await expect(like).toHaveAttribute('aria-pressed', 'false');
    await like.click();
    await expect(page.locator(`#c-${id} > .c-actions .c-like`)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator(`#c-${id} > .c-actions`)).toContainText(m('comments.likes', { count: 1 }));
    await expect(page.locator(`#c-${id} > .c-actions .c-like`)).toBeFocused();
    expect(page.url()).toBe(before);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), 'the page was not reloaded').toBe(true);
    // What the server keeps: after a reload, the reply and the like are there.
    await page.reload();
    await expect(page.locator(`#c-${id} .c-replies`)).toContainText('Replying to myself');
    await expect(page.locator(`#c-${id} > .c-actions .c-like`)).toHaveAttribute('aria-pressed', 'true');

    // Edited within ten minutes.
    const own = page.locator(`#c-${id}`);
    await own.locator('> details.c-edit > summary').click();
    await own.locator('> details.c-edit').getByLabel(m('comments.form.editLabel')).fill('What a chapter, truly! ||The mentor was the traitor||');
    await own.locator('> details.c-edit').getByRole('button', { name: m('comments.form.editSubmit') }).click();
    await expect(page.locator(`#c-${id} > .c-body`)).toContainText('What a chapter, truly!');
    await expect(page.locator(`#c-${id} > .c-meta`)).toContainText(m('comments.edited'));

    // Eleven minutes later, by a second server's injected clock over the same database: no edit
    // form any more, and an edit sent anyway is refused with the window's message.
    const later = await startFakeClockServer(Math.floor(Date.now() / 1000) + 11 * 60);
    try {
      const host = site === 'br' ? 'br.localhost' : 'localhost';
      await page.goto(`http://${host}:${later.port}/comments/${free}/`);
      await expect(page.locator(`#c-${id} > .c-body`)).toContainText('What a chapter, truly!');
      await expect(page.locator(`#c-${id} > details.c-edit`)).toHaveCount(0);
      const refused = await page.evaluate(async ({ path, id }) => {
        const res = await fetch(path, { method: 'POST', body: new URLSearchParams({ intent: 'edit', id, body: 'Rewritten much later' }) });
        return { status: res.status, text: (await res.text()).replace(/<[^>]+>/g, ' ') };
      }, { path: `/comments/${free}/`, id });
      expect(refused.text).toContain(m('comments.error.editWindow', { minutes: 10 }));
      await page.reload();
      await expect(page.locator(`#c-${id} > .c-body`)).toContainText('What a chapter, truly!');
      await expect(page.locator(`#c-${id} > .c-body`)).not.toContainText('Rewritten much later');
    } finally {
      await later.stop();
    }
    await page.goto(url(`/comments/${free}/`));

    // axe finds no serious problem in the comments, on a phone and a desktop, light and dark.
    const problems: string[] = [];
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      problems.push(...(await axeProblems(page, `${site} ${width}`, 'light')));
      await page.emulateMedia({ colorScheme: 'dark' });
      problems.push(...(await axeProblems(page, `${site} ${width}`, 'dark')));
      await page.emulateMedia({ colorScheme: 'light' });
    }
    expect(problems).toEqual([]);
  });

  test(`${site}: the reader loads the comments block only near the end, and a reader who cannot read a chapter is told why`, async ({ page, reader }) => {
    test.setTimeout(90_000);
    const { m, url } = await onSite(page, site, reader);
    const locked = await chapterWith(page, site, 403);
    await page.goto(url(`/comments/${locked}/`));
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: m('comments.closed.title') })).toBeVisible();
    await expect(main.getByText(m('comments.closed.locked'), { exact: false })).toBeVisible();
    await expect(main.getByRole('link', { name: m('comments.closed.read') })).toBeVisible();
    await expect(main.getByLabel(m('comments.form.label'))).toHaveCount(0);

    // The reader page: no fragment request at first; scrolled to the end, the comments arrive.
    const free = await chapterWith(page, site, 200);
    await page.goto(url(`/comments/${free}/`));
    const back = await page.getByRole('link', { name: m('comments.back') }).getAttribute('href');
    const fragments: string[] = [];
    page.on('request', (r) => { if (r.url().includes('/fragment/') && r.url().includes('/comments/')) fragments.push(r.url()); });
    // Read top to bottom (a manga opens paged, where the end card is a page of its own).
    await page.goto(url(back!));
    await page.evaluate(() => { const key = document.getElementById('reader')?.dataset.storageKey; if (key) localStorage.setItem(key, 'vertical'); });
    fragments.length = 0;
    await page.reload();
    await page.waitForLoadState('load');
    expect(fragments, 'nothing fetched before the reader nears the end').toEqual([]);
    const block = page.locator('#reader-comments');
    await block.scrollIntoViewIfNeeded();
    await expect(block).toHaveAttribute('data-loaded', '', { timeout: 10_000 });
    expect(fragments).toHaveLength(1);
    await expect(block.getByRole('link', { name: m('comments.all') })).toBeVisible();
  });

  test(`${site}: "load more" appends the next 20 comments in place, on the comments page and under the reader`, async ({ page, reader }) => {
    test.setTimeout(90_000);
    const { m, url } = await onSite(page, site, reader);
    const free = await chapterWith(page, site, 200);
    // 45 more comments on the chapter, a second apart (another reader's), so it has at least three pages.
    const db = await e2eDatabase();
    const { findUserByEmail } = await import('~/features/accounts/index.server');
    const author = await findUserByEmail(db, reader.email);
    const chapter = await db.selectFrom('chapters').select(['id', 'language']).where('e4pid', '=', free).executeTakeFirstOrThrow();
    const now = Math.floor(Date.now() / 1000);
    const tag = `lm${Date.now().toString(36)}`;
    await db.insertInto('comments').values(Array.from({ length: 45 }, (_, i) => ({
      chapter_id: chapter.id, site_id: site === 'br' ? 3 : 1, language: chapter.language, user_id: author!.id, parent_id: null,
      body: `${tag} number ${i}`, spoiler: 0, created_at: now - 60 - i,
    }))).execute();

    await page.goto(url(`/comments/${free}/`));
    const items = page.locator('#comments > .c-item');
    await expect(items).toHaveCount(20);
    await expect(page.locator('.c-pages a[rel="prev"]')).toHaveCount(0);
    const more = page.getByRole('link', { name: m('comments.loadMore') });
    const first = page.url();
    await more.click();
    await expect(items).toHaveCount(40);
    await expect(items.nth(20)).toBeFocused();
    expect(page.url()).toBe(first);
    // Newest first across the pages, none twice.
    const bodies = await page.locator(`#comments > .c-item .c-body`).allTextContents();
    const ours = bodies.map((b) => b.trim()).filter((b) => b.startsWith(tag)).map((b) => Number(b.split(' ').pop()));
    expect(ours).toEqual([...ours].sort((a, b) => a - b));
    expect(new Set(ours).size).toBe(ours.length);

    // Under the reader: the block's own "load more" appends read-only comments.
    const back = await page.getByRole('link', { name: m('comments.back') }).getAttribute('href');
    await page.goto(url(back!));
    await page.evaluate(() => { const key = document.getElementById('reader')?.dataset.storageKey; if (key) localStorage.setItem(key, 'vertical'); });
    await page.reload();
    const block = page.locator('#reader-comments');
    await block.scrollIntoViewIfNeeded();
    await expect(block).toHaveAttribute('data-loaded', '', { timeout: 10_000 });
    const listed = block.locator('.rc-list > .c-item');
    const shown = await listed.count();
    expect(shown).toBeGreaterThanOrEqual(20);
    await block.getByRole('link', { name: m('comments.loadMore') }).click();
    await expect(listed).toHaveCount(shown + 20);
    await expect(listed.nth(shown)).toBeFocused();
    await expect(block.locator('form')).toHaveCount(0);
  });
}
