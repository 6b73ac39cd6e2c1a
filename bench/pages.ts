/**
 * The page types of both sites that the benches visit (Lighthouse, screenshots): one list, so a
 * new page type reaches both, and one demo site to visit them on. Chapter paths come from the
 * site's series pages (they differ by language).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { createDb } from '~/server/db';
import { migrateToLatest } from '@db/migrate';
import { DEMO, seedDemo } from '@db/seed/index';
import { COLLECTIONS } from '@db/seed/collections';
import { makeReaders, serve, type BenchReader } from './keys';
import { listOnPortugueseSite } from '../tests/support/portuguese-listings';
import { chapterWithComments } from './comments';

export interface BenchPage {
  name: string;
  path: string;
  /** Loaded with the bench reader's session cookie. */
  signedIn?: boolean;
  /**
   * A reader's own page (/my/), or the paywall (a chapter's offer, not content): kept out of
   * search engines on purpose (robots.txt or noindex),
   * so Lighthouse's "page is blocked from indexing" SEO audit fails by design and is not a miss.
   */
  private?: boolean;
  /** A state reached by interacting after the load (the reader's immersive view): screenshots only. */
  then?: (page: Page) => Promise<void>;
  /** Not a 2xx document: Lighthouse refuses to audit it ("unable to reliably load the page"). */
  status?: number;
}

/** `site`: whose collection to visit (collections are per site). */
export function benchPages(chapters: { manga: string; webtoon: string; locked: string; comments?: string }, site: 'en' | 'pt-BR' = 'en'): BenchPage[] {
  return [
    { name: 'home', path: '/' },
    { name: 'listing', path: '/comics/' },
    { name: 'series', path: `/comics/${DEMO.readerManga}/` },
    { name: 'reader (paged)', path: chapters.manga },
    { name: 'reader (immersive)', path: chapters.manga, then: async (p) => { await p.keyboard.press('f'); } },
    { name: 'reader (webtoon)', path: chapters.webtoon },
    { name: 'adult gate', path: `/comics/${DEMO.adult}/` },
    ...(chapters.comments ? [{ name: 'comments (200)', path: chapters.comments, private: true }] : []),
    // A locked chapter of the demo series with a free preview (docs/reader.md): its first pages, then the offer.
    { name: 'locked chapter (preview)', path: chapters.locked },
    { name: 'paywall', path: `${chapters.locked}paywall/`, private: true },
    { name: 'schedule', path: '/schedule/' },
    { name: 'genres', path: '/genres/' },
    { name: 'new series', path: '/new/' },
    { name: 'top', path: '/top/' },
    { name: 'updates', path: '/updates/' },
    { name: 'collection', path: `/collections/${COLLECTIONS[site === 'en' ? 1 : 3][0]!.slug}/` },
    { name: 'calendar', path: '/calendario/' },
    { name: 'plans', path: '/plans/' },
    { name: 'app box', path: '/app/' },
    { name: 'login', path: '/auth/login/' },
    { name: 'sign-up', path: '/auth/signup/' },
    { name: '404', path: '/no-such-page/', status: 404 },
    { name: 'series, signed in', path: `/comics/${DEMO.readerManga}/`, signedIn: true },
    { name: 'favorites', path: '/my/favorites/', signedIn: true, private: true },
    { name: 'history', path: '/my/history/', signedIn: true, private: true },
    { name: 'keys', path: '/my/keys/', signedIn: true, private: true },
    { name: 'buy keys', path: '/my/purchase/', signedIn: true, private: true },
    { name: 'purchases', path: '/my/purchases/', signedIn: true, private: true },
    { name: 'subscriptions', path: '/my/subscriptions/', signedIn: true, private: true },
    { name: 'notifications', path: '/my/notifications/', signedIn: true, private: true },
    { name: 'notification settings', path: '/my/notifications/settings/', signedIn: true, private: true },
  ];
}

export interface DemoSite {
  name: 'en' | 'pt-BR';
  /** Host header of the site (Chromium resolves *.localhost by itself). */
  host: string;
  origin: string;
  pages: BenchPage[];
}

/**
 * The production build serving the demo catalogue from a scratch SQLite file on `port`, with a
 * reader who has keys (a session cookie for the signed-in pages) and each site's page types.
 * `stop()` ends the server and removes the file.
 */
export async function startDemoSite(port: number, tag: string): Promise<{ reader: BenchReader; sites: DemoSite[]; stop: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `inkpass-${tag}-`));
  const databaseUrl = `file:${path.join(dir, 'demo.db')}`;
  const mediaDir = path.resolve(process.env.MEDIA_DIR ?? 'data/media');
  const { db } = await createDb(databaseUrl);
  let server: Awaited<ReturnType<typeof serve>> | null = null;
  const stop = async () => {
    server?.kill('SIGTERM');
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await migrateToLatest(db);
    await seedDemo(db, { mediaDir });
    // The Portuguese adult gate is met on velvet-hours, as in the e2e suite.
    await listOnPortugueseSite(db);
    // The reader's first chapter carries 200 comments (issue 31: the reader page keeps its scores
    // with them loading below, and the comments page gets its own row).
    const comments = await chapterWithComments(db, DEMO.readerManga);
    const [reader] = await makeReaders(db, 1, 50, tag);
    server = await serve(port, databaseUrl, mediaDir);
    const sites: DemoSite[] = [];
    for (const [name, host] of [['en', `localhost:${port}`], ['pt-BR', `br.localhost:${port}`]] as const) {
      const chapter = (slug: string) => firstChapterPath(port, host, slug);
      sites.push({ name, host, origin: `http://${host}`, pages: benchPages({ manga: await chapter(DEMO.readerManga), webtoon: await chapter(DEMO.readerWebtoon), locked: await lockedChapterPath(port, host, 'the-last-cartographer'), comments: name === 'en' ? comments : undefined }, name) });
    }
    return { reader: reader!, sites, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * The first chapter of a demo series in the site's language, as its series page links it. Asked
 * of 127.0.0.1 with the site's Host: Node resolves *.localhost only where the hosts file says so.
 */
async function firstChapterPath(port: number, host: string, slug: string): Promise<string> {
  const html = await getText(port, host, `/comics/${slug}/`);
  const href = html.match(/href="(\/read\/[^"]+)"/)?.[1];
  if (!href) throw new Error(`no chapter link on http://${host}/comics/${slug}/`);
  return href;
}

/** A chapter of a demo series that an anonymous visitor must pay for (its row offers "log in to read"). */
async function lockedChapterPath(port: number, host: string, slug: string): Promise<string> {
  const html = await getText(port, host, `/comics/${slug}/`);
  const row = html.split('<li').find((r) => r.startsWith(' class="chapter-row') && r.includes('class="login-to-read"'));
  const href = row?.match(/class="chapter-main" href="(\/read\/[^"]+)"/)?.[1];
  if (!href) throw new Error(`no paid chapter on http://${host}/comics/${slug}/`);
  return href;
}

/** A page's text, asked of 127.0.0.1 with the site's Host (and a cookie, for a reader's pages). */
function getText(port: number, host: string, path: string, cookie?: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers: cookie ? { host, cookie } : { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

/**
 * Every page of both sites asked for twice before anything is measured: a fresh server process
 * compiles its hot paths and fills its caches on its first renders (docs/performance.md), which
 * is not what a visitor of a running site meets.
 */
export async function warmUp(port: number, sites: DemoSite[], cookie: string): Promise<void> {
  for (let round = 0; round < 2; round++) {
    for (const site of sites) for (const p of site.pages) await getText(port, site.host, p.path, p.signedIn ? cookie : undefined);
  }
}
