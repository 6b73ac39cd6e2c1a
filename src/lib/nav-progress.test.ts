import { describe, expect, it } from 'vitest';
import { leavesPage, type LinkClick } from './nav-progress';

const here = { origin: 'https://inkpass.test', pathname: '/comics/a/', search: '' };
const click = (over: Partial<LinkClick>): LinkClick => ({ button: 0, modified: false, defaultPrevented: false, target: '', download: false, href: 'https://inkpass.test/read/a/1/1/', ...over });

describe('leavesPage', () => {
  it('counts a plain click on a same-origin link', () => {
    expect(leavesPage(click({}), here)).toBe(true);
    expect(leavesPage(click({ target: '_self' }), here)).toBe(true);
    expect(leavesPage(click({ href: 'https://inkpass.test/comics/b/#chapters' }), here)).toBe(true);
  });
  it('ignores clicks that open elsewhere, download, or were cancelled', () => {
    expect(leavesPage(click({ button: 1 }), here)).toBe(false);
    expect(leavesPage(click({ modified: true }), here)).toBe(false);
    expect(leavesPage(click({ defaultPrevented: true }), here)).toBe(false);
    expect(leavesPage(click({ target: '_blank' }), here)).toBe(false);
    expect(leavesPage(click({ download: true }), here)).toBe(false);
  });
  it('ignores other origins, jumps within the page and bad URLs', () => {
    expect(leavesPage(click({ href: 'https://br.inkpass.test/read/a/1/1/' }), here)).toBe(false);
    expect(leavesPage(click({ href: 'https://inkpass.test/comics/a/#chapters' }), here)).toBe(false);
    expect(leavesPage(click({ href: 'not a url' }), here)).toBe(false);
  });
});
