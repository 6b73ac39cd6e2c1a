/**
 * Issue 30 in the browser, on both sites: a locked chapter of a series with a chapter preview
 * shows its first pages, then the unlock offer; the home hero's promotional video is a muted,
 * looping video with a poster and a pause control.
 */
import { expect, test, type Page } from '@playwright/test';
import { brUrl, enUrl, message } from './fixtures';

/** The demo series with a 3-page preview, and the one whose promotion is a VIDEO (db/seed/catalog.ts). */
const PREVIEW = 'the-last-cartographer';
const VIDEO = 'level-zero-hunter';

/** GET a JSON path on the page's own site (the browser resolves br.localhost; Node does not). */
const getJson = (page: Page, p: string) => page.evaluate(async (u) => (await fetch(u)).json(), p);

/** The reader URL of a released chapter of `slug` in `language` that is paid for a stranger. */
async function lockedChapterUrl(page: Page, site: (p?: string) => string, slug: string, language: string): Promise<string> {
  await page.goto(site('/robots.txt'));
  const list = await getJson(page, '/sapi/comics/?limit=100');
  const comic = (list.results as { e4pid: string; uslug: string }[]).find((c) => c.uslug === slug);
  expect(comic, `${slug} is listed`).toBeDefined();
  const body = await getJson(page, `/api/comic.public/${comic!.e4pid}/episodes?language=${language}`);
  const locked = (body.episodes as { state: string; link: string }[]).filter((e) => e.state === 'paid');
  expect(locked.length, `${slug} has locked chapters`).toBeGreaterThan(0);
  return new URL(locked[0]!.link).pathname;
}

for (const [name, site, language, locale] of [['English', enUrl, 'en', 'en'], ['Portuguese', brUrl, 'pt-br', 'pt-BR']] as const) {
  test.describe(`issue 30 on the ${name} site`, () => {
    test('a locked chapter of a preview series shows its first pages, then the unlock offer', async ({ page }) => {
      const path = await lockedChapterUrl(page, site, PREVIEW, language);
      await page.goto(site(path));
      const pages = page.locator('img.reader-preview-page');
      await expect(pages).toHaveCount(3);
      await expect(page.getByRole('heading', { name: message(locale, 'reader.preview.title', { count: 3 }) })).toBeVisible();
      // Every teaser page really loads (a preview-scoped signed URL).
      for (let i = 0; i < 3; i++) {
        await pages.nth(i).scrollIntoViewIfNeeded();
        await expect.poll(() => pages.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      }
      // After the teaser: the end of the preview, then the offer.
      const end = page.getByText(message(locale, 'reader.preview.end'));
      await expect(end).toBeVisible();
      const offer = page.getByRole('link', { name: message(locale, 'paywall.link') });
      await expect(offer).toBeVisible();
      const [endBox, offerBox, lastBox] = await Promise.all([end.boundingBox(), offer.boundingBox(), pages.nth(2).boundingBox()]);
      expect(lastBox!.y).toBeLessThan(endBox!.y);
      expect(endBox!.y).toBeLessThan(offerBox!.y);
      // The paywall page shows the same teaser above its ways in.
      await offer.click();
      await expect(page.locator('img.paywall-preview-page')).toHaveCount(3);
      await expect(page.getByRole('heading', { name: message(locale, 'paywall.ways') })).toBeVisible();
    });

    test('the home hero has the promotional video with a poster, muted and looping, and a pause control', async ({ page }) => {
      await page.goto(site('/'));
      const video = page.locator(`.hero-slide video[data-promo-video]`).first();
      await expect(video).toHaveAttribute('poster', new RegExp(`/media/series/${VIDEO}/promo-poster\\.webp$`));
      await expect(video).toHaveAttribute('preload', 'none');
      expect(await video.evaluate((v: HTMLVideoElement) => [v.muted, v.loop, v.playsInline, v.width, v.height])).toEqual([true, true, true, 640, 360]);
      // The script swaps the native controls for one named play/pause button.
      const toggle = page.locator('.hero-slide [data-promo-toggle]').first();
      await expect(toggle).toHaveAttribute('aria-label', new RegExp(`^(${message(locale, 'home.promo.play')}|${message(locale, 'home.promo.pause')})$`));
      expect(await video.evaluate((v: HTMLVideoElement) => v.controls)).toBe(false);
      // The poster answers.
      const poster = await video.getAttribute('poster');
      expect(await page.evaluate(async (u) => (await fetch(u)).status, poster!)).toBe(200);
    });
  });
}

test.describe('motion', () => {
  test('the promotional video plays, muted, once its slide is on screen; the button pauses it and it stays paused', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto(enUrl('/'));
    const slide = page.locator('.hero-slide[data-visual-type="VIDEO"]').first();
    const index = await page.locator('.home-hero .carousel-slide').evaluateAll((slides) => slides.findIndex((s) => s.querySelector('[data-visual-type="VIDEO"]')));
    await page.locator('.home-hero .carousel-dot').nth(index).click();
    const video = slide.locator('video');
    await expect(video).toBeInViewport();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.muted && v.currentTime > 0)).toBe(true);
    const toggle = slide.locator('[data-promo-toggle]');
    await expect(toggle).toHaveAttribute('aria-label', message('en', 'home.promo.pause'));
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-label', message('en', 'home.promo.play'));
    await page.waitForTimeout(400);
    expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  });
});

test.describe('reduced motion', () => {
  test('a reader who prefers reduced motion gets no autoplay; the button plays and pauses', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(enUrl('/'));
    const slide = page.locator('.hero-slide[data-visual-type="VIDEO"]').first();
    // Bring the video's slide on screen.
    const dots = page.locator('.home-hero .carousel-dot');
    const index = await page.locator('.home-hero .carousel-slide').evaluateAll((slides) => slides.findIndex((s) => s.querySelector('[data-visual-type="VIDEO"]')));
    expect(index).toBeGreaterThan(0);
    await dots.nth(index).click();
    const video = slide.locator('video');
    await expect(video).toBeInViewport();
    await page.waitForTimeout(500);
    expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    const toggle = slide.locator('[data-promo-toggle]');
    await expect(toggle).toHaveAttribute('aria-label', message('en', 'home.promo.play'));
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-label', message('en', 'home.promo.pause'));
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0)).toBe(true);
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-label', message('en', 'home.promo.play'));
    expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the preview pages load and the offer follows; the hero video keeps its native controls and no dead button', async ({ page, browser }) => {
    // The chapter's URL is found with JavaScript (the API), then read without it.
    const withJs = await browser.newPage();
    const path = await lockedChapterUrl(withJs, enUrl, PREVIEW, 'en');
    await withJs.close();
    await page.goto(enUrl(path));
    const pages = page.locator('img.reader-preview-page');
    await expect(pages).toHaveCount(3);
    await pages.first().scrollIntoViewIfNeeded();
    await expect.poll(() => pages.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(page.getByRole('link', { name: message('en', 'paywall.link') })).toBeVisible();

    await page.goto(enUrl('/'));
    const video = page.locator('.hero-slide video[data-promo-video]').first();
    await expect(video).toHaveAttribute('controls', '');
    await expect(page.locator('.hero-slide [data-promo-toggle]').first()).toBeHidden();
  });
});
