/**
 * The home page in a browser: its blocks on both sites, the LCP image, and the series card
 * hover reel on devices that hover, with the no-effect and reduced-motion cases.
 */
import { brUrl, expect, message, revealHomeBlocks, test } from './fixtures';

test.describe('home page', () => {
  test('shows the blocks on the English site with the hero image prioritised', async ({ page }) => {
    await page.goto('/');
    // The blocks after the first screens arrive as the reader scrolls to them.
    await revealHomeBlocks(page);
    for (const key of ['home.heroLabel', 'home.newest', 'home.popular', 'home.genres', 'home.collection']) {
      await expect(page.getByRole('region', { name: message('en', key), exact: true })).toBeVisible();
    }
    await expect(page.getByRole('heading', { level: 2, name: message('en', 'home.recommended') })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: message('en', 'home.showcase') })).toBeVisible();
    // Pictures (a promotional video of a later slide has a poster instead: preload="none").
    const heroImages = page.locator('img.hero-img');
    await expect(heroImages.first()).toHaveAttribute('fetchpriority', 'high');
    await expect(heroImages.first()).toHaveAttribute('loading', 'eager');
    await expect(heroImages.nth(1)).toHaveAttribute('loading', 'lazy');
    // The category strip links into the listing, filtered.
    const category = page.getByRole('region', { name: message('en', 'home.categories') }).getByRole('link').first();
    await category.scrollIntoViewIfNeeded();
    await category.click();
    await expect(page).toHaveURL(/\/comics\/\?filter=[a-z-]+$/);
  });

  test('speaks Portuguese on the Portuguese site', async ({ page }) => {
    await page.goto(brUrl('/'));
    await revealHomeBlocks(page, 'newest');
    await expect(page.getByRole('region', { name: message('pt-BR', 'home.newest'), exact: true })).toBeVisible();
    const hero = page.getByRole('region', { name: message('pt-BR', 'home.heroLabel') });
    await expect(hero).toHaveAttribute('aria-roledescription', message('pt-BR', 'carousel.roleDescription'));
    await expect(hero.getByRole('button', { name: message('pt-BR', 'carousel.next') })).toBeVisible();
    await expect(hero.getByRole('group').first()).toHaveAttribute('aria-label', /^1 de \d+$/);
  });
});

test.describe('series card hover reel', () => {
  test('hovering a grid card shows scrolling chapter thumbnails, a start-reading button and the series link', async ({ page }) => {
    await page.goto('/comics/?view=grid');
    const card = page.locator('.series-card').first();
    const title = (await card.locator('.title').innerText()).trim();
    await card.locator('.sc-cover').hover();
    const reel = card.locator('[data-reel-overlay]');
    await expect(reel).toBeVisible();
    const start = reel.getByRole('link', { name: message('en', 'card.startReading') });
    await expect(start).toHaveAttribute('href', /^\/read\/[a-z0-9-]+\/[a-z0-9]+\/(chapter|episode)-[0-9-]+\/$/);
    await expect(reel.getByRole('link', { name: message('en', 'card.seriesPage') })).toHaveAttribute('href', /^\/comics\/[a-z0-9-]+\/$/);
    await expect(reel.locator('.sc-reel-strip img').first()).toBeVisible();
    // 230 px per second: the duration is the strip height (one copy) over 230.
    const timing = await reel.locator('.sc-reel-strip').evaluate((el) => ({
      duration: parseFloat(getComputedStyle(el).animationDuration),
      height: el.scrollHeight / 2,
      state: getComputedStyle(el).animationPlayState,
    }));
    expect(timing.state).toBe('running');
    expect(timing.duration).toBeCloseTo(timing.height / 230, 1);
    // Leaving the card hides it again; the start button reads the series.
    await page.mouse.move(1, 1);
    await expect(reel).toBeHidden();
    await card.locator('.sc-cover').hover();
    await start.click();
    await expect(page).toHaveURL(/\/read\//);
    expect(title.length).toBeGreaterThan(0);
  });

  test('shows a still strip with reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/comics/?view=grid');
    const card = page.locator('.series-card').first();
    await card.locator('.sc-cover').hover();
    const reel = card.locator('[data-reel-overlay]');
    await expect(reel).toBeVisible();
    await expect(reel).toHaveClass(/is-static/);
    expect(await reel.locator('.sc-reel-strip').evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
  });
});

test.describe('series card on a touch device', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 800 } });

  test('does nothing and loads no reel', async ({ page }) => {
    const reelRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/home/reel/')) reelRequests.push(r.url());
    });
    await page.goto('/comics/?view=grid');
    const card = page.locator('.series-card').first();
    await card.locator('.sc-cover').hover();
    await page.waitForTimeout(500);
    await expect(card.locator('[data-reel-overlay]')).toHaveCount(0);
    expect(reelRequests).toEqual([]);
  });
});
