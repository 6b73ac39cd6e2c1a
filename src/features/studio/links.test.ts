import { describe, expect, it } from 'vitest';
import { checkSharePath, isShortCode, shortCodeFrom, SHARE_PATH_MAX, SHORT_CODE_BYTES } from './links';
import { readerPath } from '~/lib/paths';

const ORIGIN = 'http://localhost:4321';
const chapter = readerPath({ slug: 'the-tower', format: 'MANGA' }, { e4pid: 'EPI-ab12cd34', number: 12.5, language: 'en' });

describe('checkSharePath (what a share link may lead to)', () => {
  it("takes a chapter's reader path, as a path or as a URL on this very origin", () => {
    expect(chapter).toBe('/read/the-tower/ab12cd34/chapter-12-5/');
    expect(checkSharePath(chapter, ORIGIN)).toEqual({ ok: true, path: chapter });
    expect(checkSharePath(`  ${chapter} `, ORIGIN)).toEqual({ ok: true, path: chapter });
    expect(checkSharePath(`${ORIGIN}${chapter}`, ORIGIN)).toEqual({ ok: true, path: chapter });
    const pt = readerPath({ slug: 'a-torre', format: 'WEBTOON' }, { e4pid: 'EPI-x', number: 3, language: 'pt-br' });
    expect(checkSharePath(pt, ORIGIN)).toEqual({ ok: true, path: pt });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    [`/read/${'a'.repeat(SHARE_PATH_MAX)}/x/chapter-1/`, 'tooLong'],
    ['/read/the-tower/ab12cd34/chap\nter-1/', 'invalid'],
    ['/read/the-tower/ab12cd34/chapter-1/\u0000', 'invalid'],
    ['/\\evil.example/read/x/y/chapter-1/', 'invalid'],
    ['//evil.example/read/x/y/chapter-1/', 'offSite'],
    [`https://evil.example${chapter}`, 'offSite'],
    [`http://localhost:9999${chapter}`, 'offSite'],
    [`http://user:pw@localhost:4321${chapter}`, 'offSite'],
    ['javascript:alert(1)', 'offSite'],
    ['evil.example', 'offSite'],
    ['/comics/the-tower/', 'notChapter'],
    ['/read/the-tower/ab12cd34/', 'notChapter'],
    [`${chapter}?utm=x`, 'notChapter'],
    [`${chapter}#top`, 'notChapter'],
    ['/read/../auth/login/x/chapter-1/', 'notChapter'],
    ['/read/the-tower/ab12cd34/chapter-1', 'notChapter'],
  ])('refuses %j (%s)', (input, error) => {
    expect(checkSharePath(input, ORIGIN)).toEqual({ ok: false, error });
  });
});

describe('short codes', () => {
  it('are 16 URL-safe characters from 96 random bits, and nothing else passes for one', () => {
    const code = shortCodeFrom(new Uint8Array(SHORT_CODE_BYTES).fill(0xfb));
    expect(code).toBe('-_v7-_v7-_v7-_v7');
    expect(isShortCode(code)).toBe(true);
    expect(isShortCode(shortCodeFrom(crypto.getRandomValues(new Uint8Array(SHORT_CODE_BYTES))))).toBe(true);
    for (const bad of ['', 'short', `${code}x`, code.slice(1), 'abcdefghijklmn/p', 'abcdefghijklmn.p', '../../../etc/pa']) expect(isShortCode(bad), bad).toBe(false);
    expect(() => shortCodeFrom(new Uint8Array(8))).toThrow();
  });
});
