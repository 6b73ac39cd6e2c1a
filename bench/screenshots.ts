/**
 * `npm run screenshots`: every page type of both sites at 390 and 1280 px, light and dark,
 * anonymous and signed in (a reader with keys, a favorite and a chapter read), as PNG files in
 * data/screenshots/ (or SCREENSHOTS_DIR), for a person to look at. Against the production build
 * serving the demo catalogue from a scratch SQLite file, in Debian's Chromium (CHROMIUM_PATH).
 * Each picture is the page from its top, at most 3,000 px tall. SCREENSHOT_PAGES=home,reader
 * narrows it to some page types. Never part of `npm test`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { createDb } from '~/server/db';
import { migrateToLatest } from '@db/migrate';
import { DEMO, seedDemo } from '@db/seed/index';
import { makeReaders, serve } from './keys';
import { benchPages } from './pages';

const PORT = Number(process.env.SCREENSHOTS_PORT ?? 4396);
const OUT = path.resolve(process.env.SCREENSHOTS_DIR ?? 'data/screenshots');
const MAX_HEIGHT = 3000;


async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-shots-'));
  const databaseUrl = `file:${path.join(dir, 'demo.db')}`;
  const mediaDir = path.resolve(process.env.MEDIA_DIR ?? 'data/media');
  const { db } = await createDb(databaseUrl);
  const server = await (async () => {
    await migrateToLatest(db);
    await seedDemo(db, { mediaDir });
    return serve(PORT, databaseUrl, mediaDir);
  })();
  const [reader] = await makeReaders(db, 1, 50, 'screens');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const only = process.env.SCREENSHOT_PAGES?.split(',').map((s) => s.trim()).filter(Boolean);
  fs.mkdirSync(OUT, { recursive: true });
  let count = 0;
  try {
    for (const site of [{ name: 'en', host: `localhost:${PORT}` }, { name: 'pt-BR', host: `br.localhost:${PORT}` }]) {
      const origin = `http://${site.host}`;
      // The first chapter link of a series page, as a reader follows it.
      const chapterOf = async (page: Page, slug: string) => {
        await page.goto(`${origin}/comics/${slug}/`);
        return (await page.locator('a[href^="/read/"]').first().getAttribute('href')) ?? '/';
      };
      const probe = await browser.newPage();
      const manga = await chapterOf(probe, DEMO.readerManga);
      const webtoon = await chapterOf(probe, DEMO.readerWebtoon);
      await probe.close();
      const shots = benchPages({ manga, webtoon });
      for (const width of [390, 1280]) {
        for (const scheme of ['light', 'dark'] as const) {
          const context = await browser.newContext({ viewport: { width, height: width < 1000 ? 844 : 900 }, colorScheme: scheme });
          const [name, value] = reader!.cookie.split('=') as [string, string];
          const signedIn = await browser.newContext({ viewport: { width, height: width < 1000 ? 844 : 900 }, colorScheme: scheme });
          await signedIn.addCookies([{ name, value, domain: site.host.split(':')[0]!, path: '/' }]);
          for (const shot of shots) {
            if (only && !only.some((o) => shot.name.startsWith(o))) continue;
            const page = await (shot.signedIn ? signedIn : context).newPage();
            await page.goto(`${origin}${shot.path}`, { waitUntil: 'load' });
            if (shot.then) await shot.then(page);
            await page.waitForTimeout(500);
            const height = Math.min(MAX_HEIGHT, await page.evaluate(() => document.documentElement.scrollHeight));
            const file = path.join(OUT, `${site.name}-${shot.name.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}-${width}-${scheme}.png`);
            await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width, height } });
            await page.close();
            count++;
          }
          await context.close();
          await signedIn.close();
        }
      }
    }
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`${count} screenshots in ${path.relative(process.cwd(), OUT) || OUT}`);
}

await main();
process.exit(0);
