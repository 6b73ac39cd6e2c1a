/**
 * `npm run screenshots`: every page type of both sites at 390 and 1280 px, light and dark,
 * anonymous and signed in (a new reader with 50 keys), as PNG files in
 * data/screenshots/ (or SCREENSHOTS_DIR), for a person to look at. Against the production build
 * serving the demo catalogue from a scratch SQLite file, in Debian's Chromium (CHROMIUM_PATH).
 * Each picture is the page from its top, at most 3,000 px tall. SCREENSHOT_PAGES=home,reader
 * narrows it to some page types. Never part of `npm test`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { startDemoSite } from './pages';

const PORT = Number(process.env.SCREENSHOTS_PORT ?? 4396);
const OUT = path.resolve(process.env.SCREENSHOTS_DIR ?? 'data/screenshots');
const MAX_HEIGHT = 3000;

async function main(): Promise<void> {
  const demo = await startDemoSite(PORT, 'screens');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const only = process.env.SCREENSHOT_PAGES?.split(',').map((s) => s.trim()).filter(Boolean);
  const [name, value] = demo.reader.cookie.split('=') as [string, string];
  fs.mkdirSync(OUT, { recursive: true });
  let count = 0;
  try {
    for (const site of demo.sites) {
      for (const width of [390, 1280]) {
        for (const scheme of ['light', 'dark'] as const) {
          const context = await browser.newContext({ viewport: { width, height: width < 1000 ? 844 : 900 }, colorScheme: scheme });
          const signedIn = await browser.newContext({ viewport: { width, height: width < 1000 ? 844 : 900 }, colorScheme: scheme });
          await signedIn.addCookies([{ name, value, domain: site.host.split(':')[0]!, path: '/' }]);
          for (const shot of site.pages) {
            if (only && !only.some((o) => shot.name.startsWith(o))) continue;
            const page = await (shot.signedIn ? signedIn : context).newPage();
            await page.goto(`${site.origin}${shot.path}`, { waitUntil: 'load' });
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
    await demo.stop();
  }
  console.log(`${count} screenshots in ${path.relative(process.cwd(), OUT) || OUT}`);
}

await main();
process.exit(0);
