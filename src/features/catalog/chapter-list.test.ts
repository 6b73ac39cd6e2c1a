import { describe, it, expect } from 'vitest';
import { renderChapterRows, type RowLabels } from './chapter-list';
import { escapeHtml } from '~/lib/html';
import type { ChapterView } from './series.server';
import { withGaps } from './rules';
import { createT } from '~/lib/i18n';

const labels: RowLabels = {
  free: 'FREE',
  // The catalogue's label: "1 KEY", "3 KEYS".
  keys: (n) => createT('en')('chapter.price.keys', { n }),
  was: (p) => `Was ${p}`,
  loginToRead: 'Log in to read',
  scheduled: 'Coming',
  comingSoon: 'More chapters coming soon',
};

function chapter(over: Partial<ChapterView>): ChapterView {
  return {
    id: 1, e4pid: 'EPI-abc', number: 1, name: 'Chapter 1', title: null, subtitle: null, releasedAt: 100, dateText: 'Jan 1, 2026', relative: false,
    iso: '1970-01-01T00:01:40.000Z', state: 'free', finalPrice: 0, originalPrice: 0, onSale: false,
    reason: 'free', readableUntil: null, bonus: 0, payWith: null, buyable: false, pass: null, ad: false, rentLeft: null, untilText: null, passText: null,
    href: '/read/s/abc/chapter-1/', thumbnail: 'pool/thumbs/thumb-01.webp', ...over,
  };
}
const render = (cs: ChapterView[], path = '/comics/s/') => renderChapterRows(withGaps(cs), labels, path);

describe('chapter rows', () => {
  it('shows Read Again on a completed row and Continue on one in progress, for the signed-in reader', () => {
    const l = { ...labels, readAgain: 'Read Again', continue: 'Continue' };
    const html = renderChapterRows(withGaps([chapter({ read: 'read' }), chapter({ e4pid: 'EPI-b', number: 2, read: 'reading', highlighted: true }), chapter({ e4pid: 'EPI-c', number: 3 })]), l, '/comics/s/');
    expect(html).toContain('is-read" data-number="1"');
    expect(html).toContain('<span class="read-state read-state-read">Read Again</span>');
    expect(html).toContain('is-reading is-highlighted" data-number="2" data-highlighted');
    expect(html).toContain('<span class="read-state read-state-reading">Continue</span>');
    expect(html.match(/class="read-state /g)?.length).toBe(2);
  });
  it('a free chapter links to the reader and says FREE', () => {
    const html = render([chapter({})]);
    expect(html).toContain('<a class="chapter-main" href="/read/s/abc/chapter-1/">');
    expect(html).toContain('>FREE<');
    expect(html).not.toContain('Log in to read');
  });
  it('a paid chapter shows its price and a login link back to the page, where the unlock dialog reopens for it', () => {
    const html = render([chapter({ state: 'paid', finalPrice: 3, originalPrice: 3 }), chapter({ state: 'paid', finalPrice: 3, originalPrice: 3, e4pid: 'EPI-two' })], '/comics/s/?order=asc');
    expect(html).toContain('3 KEYS');
    const next = (e4pid: string) => encodeURIComponent(`/comics/s/?order=asc&intent=${encodeURIComponent(`unlock:${e4pid}`)}`);
    expect(html).toContain(`href="/auth/login/?next=${next(chapter({}).e4pid)}">Log in to read`);
    expect(html).toContain(`href="/auth/login/?next=${next('EPI-two')}">Log in to read`);
    // A return path that is not local carries no intent, and no row's link breaks.
    expect(render([chapter({ state: 'paid', finalPrice: 3, originalPrice: 3 })], '//evil.example/')).toContain('href="/auth/login/?next=%2F%2Fevil.example%2F">Log in to read');
    expect(html).not.toContain('<s ');
  });
  it('a campaign price strikes the original through and names it for screen readers', () => {
    const html = render([chapter({ state: 'paid', finalPrice: 1, originalPrice: 2, onSale: true })]);
    expect(html).toMatch(/<s class="price-was"><span aria-hidden="true">2 KEYS<\/span><span class="visually-hidden">Was 2 KEYS<\/span><\/s>/);
    expect(html).toContain('class="price-now sale">1 KEY');
  });
  it('a scheduled chapter is not a link and shows the time until release', () => {
    const html = render([chapter({ state: 'scheduled', dateText: 'in 3 days', releasedAt: 999 })]);
    expect(html).not.toContain('<a ');
    expect(html).toContain('aria-disabled="true"');
    expect(html).toContain('data-countdown="999">in 3 days</time>');
  });
  it('only relatively shown dates carry the instant the browser refreshes them from', () => {
    const html = render([chapter({ number: 1 }), chapter({ number: 2, relative: true, releasedAt: 500, dateText: '2 days ago' })]);
    expect(html).toContain('<time datetime="1970-01-01T00:01:40.000Z">Jan 1, 2026</time>');
    expect(html).toContain('data-relative="500">2 days ago</time>');
    expect(html.match(/data-relative/g)).toHaveLength(1);
  });
  it('puts the coming-soon row between distant chapters', () => {
    const html = render([chapter({ number: 20 }), chapter({ number: 23 })]);
    expect(html.indexOf('More chapters coming soon')).toBeGreaterThan(html.indexOf('data-number="20"'));
    expect(html.indexOf('More chapters coming soon')).toBeLessThan(html.indexOf('data-number="23"'));
  });
  it('escapes titles, names and links', () => {
    const html = render([chapter({ title: '<script>alert(1)</script>', subtitle: '"quoted" & more', name: 'Ch <1>', href: '/read/x/"y/' })]);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;quoted&quot; &amp; more');
    expect(html).toContain('Ch &lt;1&gt;');
    expect(html).toContain('href="/read/x/&quot;y/"');
  });
  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href='x'>&"`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&quot;');
  });

  describe('for a signed-in reader', () => {
    const l: RowLabels = {
      ...labels, unlock: 'Unlock', owned: 'Owned', rented: 'Rented', freeRead: 'Free read', ends: (w) => `ends ${w}`,
      passReady: 'Daily pass ready', unavailable: 'Unavailable',
    };
    const signed = (cs: ChapterView[]) => renderChapterRows(withGaps(cs), l, '/comics/s/', true);
    it('a paid row offers an unlock form (no login link) whose button carries what the dialog shows', () => {
      const html = signed([chapter({ state: 'paid', reason: null, finalPrice: 12, originalPrice: 15, onSale: true, bonus: 1, buyable: true, e4pid: 'EPI-p"x', ad: true })]);
      expect(html).not.toContain('Log in to read');
      // The button submits the form the page wraps around its lists: a row needs no form of its own,
      // and its name says which chapter it unlocks.
      expect(html).toContain('<button class="btn-unlock" name="content" value="EPI-p&quot;x" data-price="12" data-was="15" data-ad aria-label="Unlock: Chapter 1">Unlock</button>');
    });
    it('an owned row says so; a free read (daily pass, ad) says so, never "Rented", and when it ends, refreshable', () => {
      const html = signed([
        chapter({ state: 'unlocked', reason: 'owned', finalPrice: 5 }),
        chapter({ number: 2, state: 'unlocked', reason: 'daily_pass', readableUntil: 7200, untilText: 'in 2 hours' }),
        chapter({ number: 3, state: 'unlocked', reason: 'ad_rental', readableUntil: 3600, untilText: 'in 1 hour' }),
      ]);
      expect(html).toContain('<span class="chip chip-owned">Owned</span>');
      expect(html).toContain('<span class="chip chip-owned">Free read</span><span class="until">ends <time datetime="1970-01-01T02:00:00.000Z" data-countdown="7200">in 2 hours</time></span>');
      expect(html).toContain('<span class="chip chip-owned">Free read</span><span class="until">ends <time datetime="1970-01-01T01:00:00.000Z" data-countdown="3600">in 1 hour</time></span>');
      expect(html).not.toContain('Rented');
      expect(html).not.toContain('5 KEY');
    });
    it('shows the daily pass on each row it opens now; while it recharges no row repeats when (the header says it once)', () => {
      const ready = signed([chapter({ state: 'paid', reason: null, finalPrice: 3, originalPrice: 3, buyable: true, pass: { open: true } })]);
      expect(ready).toContain('<span class="chip chip-pass">Daily pass ready</span>');
      const later = signed([chapter({ state: 'paid', reason: null, finalPrice: 3, originalPrice: 3, buyable: true, pass: { open: false, until: 3600 }, passText: 'in 1 hour' })]);
      expect(later).not.toContain('in 1 hour');
      expect(later).not.toContain('data-countdown');
      expect(later).toContain('btn-unlock');
    });
    it('a chapter read through the subscription says Subscribed; a plan rental is a rental that ends', () => {
      const html = renderChapterRows(withGaps([
        chapter({ state: 'unlocked', reason: 'subscription', finalPrice: 4 }),
        chapter({ number: 2, state: 'unlocked', reason: 'rental', readableUntil: 3600, untilText: 'in 1 hour' }),
      ]), { ...l, subscribed: 'Subscribed' }, '/comics/s/', true);
      expect(html).toContain('<span class="chip chip-owned">Subscribed</span>');
      expect(html).toContain('<span class="chip chip-owned">Rented</span><span class="until">ends <time datetime="1970-01-01T01:00:00.000Z" data-countdown="3600">in 1 hour</time></span>');
      expect(html).not.toContain('4 KEY');
    });
    it('a row the plan can rent offers the dialog with the rentals left, even when keys cannot buy it', () => {
      const html = signed([chapter({ state: 'paid', reason: null, finalPrice: 3, originalPrice: 3, buyable: false, rentLeft: 4 })]);
      expect(html).toContain('data-price="3" data-rent="4" aria-label="Unlock: Chapter 1">');
      expect(signed([chapter({ state: 'paid', reason: null, finalPrice: 3, originalPrice: 3, buyable: false })])).not.toContain('btn-unlock');
    });
    it('a withdrawn chapter is unavailable and offers nothing', () => {
      const html = signed([chapter({ state: 'unavailable', reason: null, finalPrice: 3 })]);
      expect(html).toContain('<span class="chip">Unavailable</span>');
      expect(html).not.toContain('btn-unlock');
    });
  });

  it('gives each row a link-generation button only when the page passes one (staff with content)', () => {
    const rows = [chapter({}), chapter({ e4pid: 'EPI-b', number: 2, name: 'Ch <2>', href: '/read/s/b/chapter-2/', state: 'scheduled' })];
    expect(render(rows)).not.toContain('data-share');
    const html = renderChapterRows(withGaps(rows), { ...labels, share: { label: 'Copy link', action: '/_/dynamic_link' } }, '/comics/s/', true);
    expect(html.match(/data-share/g)).toHaveLength(2);
    // It submits the form around the lists to the link call, with the row's reader path, and says which chapter.
    expect(html).toContain('<button class="btn-share" formaction="/_/dynamic_link" formmethod="post" formnovalidate name="path" data-share aria-label="Copy link: Ch &lt;2&gt;" value="/read/s/b/chapter-2/">Copy link</button>');
  });
});
