/**
 * The home carousels (src/components/Carousel.astro + src/components/carousel.client.ts): buttons,
 * arrow keys, swipe past 20 % of the width, infinite wrap, autoplay that pauses on hover and
 * has a pause button, reduced motion, and the scrollable row without JavaScript.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, message, revealHomeBlocks, test } from './fixtures';

const en = (key: string, values?: Record<string, string | number>) => message('en', key, values);

/** A carousel by its accessible name (its block's fragment loaded first), scrolled into view and enhanced by the script. */
async function carousel(page: Page, name: string, block?: string): Promise<Locator> {
  if (block) await revealHomeBlocks(page, block);
  const region = page.getByRole('region', { name, exact: true });
  await region.scrollIntoViewIfNeeded();
  await expect(region).toHaveClass(/is-enhanced/);
  return region;
}

/** The current slide (the first in view; the script marks it), whose label is "n of m". */
function current(region: Locator): Locator {
  return region.locator('.carousel-slide[data-current]');
}

async function slideCount(region: Locator): Promise<number> {
  return region.locator('.carousel-slide').count();
}

test.describe('home carousels', () => {
  test('move with the next and previous buttons, and slides out of view are inert', async ({ page }) => {
    await page.goto('/');
    const newest = await carousel(page, en('home.newest'), 'newest');
    const total = await slideCount(newest);
    expect(total).toBeGreaterThan(3);
    await expect(newest).toHaveAttribute('aria-roledescription', en('carousel.roleDescription'));
    await expect(current(newest)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: 1, total }));
    // Two per view at 1280 px: the third slide is out of view and cannot be focused.
    await expect(newest.locator('.carousel-slide').nth(2)).toHaveAttribute('inert', '');

    await newest.getByRole('button', { name: en('carousel.next') }).click();
    await expect(current(newest)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: 2, total }));
    await newest.getByRole('button', { name: en('carousel.previous') }).click();
    await expect(current(newest)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: 1, total }));
    // Not infinite: at the start, "previous" is disabled.
    await expect(newest.getByRole('button', { name: en('carousel.previous') })).toBeDisabled();
  });

  test('arrow keys move the carousel when focus is inside, and focus follows the slide', async ({ page }) => {
    await page.goto('/');
    const newest = await carousel(page, en('home.newest'), 'newest');
    const total = await slideCount(newest);
    const firstLink = newest.locator('.carousel-slide').first().getByRole('link');
    await firstLink.focus();
    await page.keyboard.press('ArrowRight');
    await expect(current(newest)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: 2, total }));
    await expect(newest.locator('.carousel-slide').nth(1).getByRole('link')).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(current(newest)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: 1, total }));
    await expect(firstLink).toBeFocused();
  });

  test('a drag shorter than 20 % of the width springs back; a longer one changes slides', async ({ page }) => {
    await page.goto('/');
    const newest = await carousel(page, en('home.newest'), 'newest');
    const total = await slideCount(newest);
    const box = (await newest.locator('.carousel-track').boundingBox())!;
    const y = box.y + box.height / 2;
    const drag = async (fraction: number) => {
      const from = box.x + box.width * 0.6;
      await page.mouse.move(from, y);
      await page.mouse.down();
      await page.mouse.move(from - box.width * fraction, y, { steps: 12 });
      await page.mouse.up();
    };
    await drag(0.12);
    await page.waitForTimeout(700);
    await expect(current(newest)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: 1, total }));
    await drag(0.3);
    await expect(current(newest)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: 2, total }));
    // A drag must not count as a click on the card link underneath.
    await expect(page).toHaveURL(/\/$/);
  });

  test('an infinite carousel wraps around from the first slide to the last', async ({ page }) => {
    await page.goto('/');
    const popular = await carousel(page, en('home.popular'), 'popular');
    const total = await slideCount(popular);
    await popular.getByRole('button', { name: en('carousel.previous') }).click();
    await expect(current(popular)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: total, total }));
    await popular.getByRole('button', { name: en('carousel.next') }).click();
    await expect(current(popular)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: 1, total }));
  });

  test('the slideshow plays every 5 s, pauses while hovered and stops with its pause button', async ({ page }) => {
    // A paused fake clock: time moves only when the test says so, however slow the machine.
    await page.clock.install({ time: new Date('2030-01-01T10:00:00Z') });
    await page.clock.pauseAt(new Date('2030-01-01T10:00:01Z'));
    await page.goto('/');
    const hero = await carousel(page, en('home.heroLabel'));
    const total = await slideCount(hero);
    const at = (n: number) => expect(current(hero)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n, total }));
    await at(1);
    await page.clock.runFor(4000);
    await at(1);
    await page.clock.runFor(2000);
    await at(2);

    await hero.locator('.carousel-track').hover();
    await page.clock.runFor(12_000);
    await at(2);
    await page.mouse.move(5, 5);
    await page.clock.runFor(6000);
    await at(3);

    const pause = hero.getByRole('button', { name: en('carousel.pause') });
    await pause.click();
    await expect(hero.getByRole('button', { name: en('carousel.play') })).toBeVisible();
    await page.mouse.move(5, 5);
    await page.clock.runFor(12_000);
    await at(3);
    await hero.getByRole('button', { name: en('carousel.play') }).click();
    await page.mouse.move(5, 5);
    await page.clock.runFor(6000);
    await at(4);
  });

  test('with reduced motion the slideshow does not play by itself', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.clock.install({ time: new Date('2030-01-01T10:00:00Z') });
    await page.clock.pauseAt(new Date('2030-01-01T10:00:01Z'));
    await page.goto('/');
    const hero = await carousel(page, en('home.heroLabel'));
    await expect(hero.getByRole('button', { name: en('carousel.play') })).toBeVisible();
    await page.clock.runFor(12_000);
    await expect(current(hero)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: 1, total: await slideCount(hero) }));
    // The buttons still work, without animation.
    await hero.getByRole('button', { name: en('carousel.next') }).click();
    await page.clock.runFor(100);
    await expect(current(hero)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: 2, total: await slideCount(hero) }));
  });

  for (const width of [390, 1280]) {
    test(`nothing on the page moves when the carousels enhance (${width} px)`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width, height: 844 } });
      const page = await context.newPage();
      // The carousel code arrives well after the first paint, as on a slow phone.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/_astro/carousel.client.*', async (route) => {
        await held;
        await route.continue();
      });
      const below = page.locator('#home-latest-updates');
      await page.goto('/', { waitUntil: 'domcontentloaded' });
      // Latest updates is the first later block: its fragment arrives at once, right under the slideshow.
      await below.waitFor();
      await page.waitForTimeout(300);
      const before = (await below.boundingBox())!;
      release();
      await expect(page.getByRole('region', { name: en('home.heroLabel') })).toHaveClass(/is-enhanced/);
      await expect(below).toHaveClass(/is-enhanced/);
      expect((await below.boundingBox())!.y).toBe(before.y);
      expect((await below.boundingBox())!.height).toBe(before.height);
      await context.close();
    });
  }

  test('loads the later blocks as the reader nears them, and their carousel script when one comes into view', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('region', { name: en('home.heroLabel') })).toHaveClass(/is-enhanced/);
    // The last block is still the link that stands in for it, far below.
    await expect(page.locator('[data-home-block="genres"]')).toHaveCount(1);
    await expect(page.getByRole('region', { name: en('home.genres') })).toHaveCount(0);
    await revealHomeBlocks(page);
    // Every block arrived; the ones seen on the way have working carousels.
    for (const key of ['home.latest', 'home.newest', 'home.featured', 'home.popular', 'home.collection', 'home.genres']) {
      await expect(page.getByRole('region', { name: en(key), exact: true }), key).toHaveCount(1);
    }
    const genres = await carousel(page, en('home.genres'));
    const total = await slideCount(genres);
    await genres.getByRole('button', { name: en('carousel.next') }).click();
    await expect(current(genres)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: 2, total }));
    // Scrolled back up, a block the reader passed quickly is enhanced when it comes into view.
    const newest = await carousel(page, en('home.newest'));
    await newest.getByRole('button', { name: en('carousel.next') }).click();
    await expect(current(newest)).toHaveAttribute('aria-label', en('carousel.slideLabel', { n: 2, total: await slideCount(newest) }));
  });
});

test.describe('home carousels without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('are rows that scroll sideways, with every slide in the page; the later blocks are links to pages that show them', async ({ page }) => {
    await page.goto('/');
    const hero = page.getByRole('region', { name: en('home.heroLabel'), exact: true });
    await expect(hero).not.toHaveClass(/is-enhanced/);
    await expect(hero.getByRole('button', { name: en('carousel.next') })).toBeHidden();
    const track = hero.locator('.carousel-track');
    const firstSlide = hero.locator('.carousel-slide').first();
    const before = (await firstSlide.boundingBox())!;
    const box = (await track.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(600, 0);
    await expect.poll(async () => (await firstSlide.boundingBox())!.x).toBeLessThan(before.x - 100);
    // The last slide is a real link that can be reached.
    await expect(hero.locator('.carousel-slide').last().getByRole('link')).toHaveAttribute('href', /^\/comics\/[a-z0-9-]+\/$/);
    // Each later block is a link in its place.
    const blocks = page.locator('[data-home-block]');
    expect(await blocks.count()).toBeGreaterThan(5);
    await expect(blocks.getByRole('link', { name: en('home.latest'), exact: true })).toHaveAttribute('href', '/updates/');
    await expect(blocks.getByRole('link', { name: en('schedule.heading'), exact: true })).toHaveAttribute('href', '/schedule/');
    const popular = blocks.getByRole('link', { name: en('home.popular'), exact: true });
    await popular.scrollIntoViewIfNeeded();
    await popular.click();
    // Popular's place-holder leads to the whole top list (/top/).
    await expect(page).toHaveURL(/\/top\/$/);
    await expect(page.locator('a[href^="/comics/"]').nth(5)).toBeVisible();
  });
});
