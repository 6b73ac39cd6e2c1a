import { describe, expect, it } from 'vitest';
import { bodyHtml, checkBody, COMMENT_MAX, editable, EDIT_WINDOW, parseBody, parseCommentId, pickBest, sameText, wilsonLowerBound } from './rules';

describe('checkBody', () => {
  it('trims, unifies line ends and drops control characters', () => {
    expect(checkBody('  hi\r\nthere\u0000 ')).toEqual({ ok: true, body: 'hi\nthere' });
  });
  it('refuses empty and blank bodies', () => {
    expect(checkBody('')).toEqual({ ok: false, reason: 'empty' });
    expect(checkBody(' \n\t ')).toEqual({ ok: false, reason: 'empty' });
  });
  it('takes 2,000 characters and refuses 2,001, counting code points', () => {
    expect(checkBody('a'.repeat(COMMENT_MAX)).ok).toBe(true);
    expect(checkBody('a'.repeat(COMMENT_MAX + 1))).toEqual({ ok: false, reason: 'tooLong' });
    expect(checkBody('😀'.repeat(COMMENT_MAX)).ok).toBe(true);
  });
  it('keeps bidi controls as text', () => {
    expect(checkBody('a\u202Eb')).toEqual({ ok: true, body: 'a\u202Eb' });
  });
});

describe('sameText', () => {
  it('ignores case and white space runs', () => {
    expect(sameText('Great  chapter!', 'great chapter!')).toBe(true);
    expect(sameText('Great chapter', 'Great chapter!')).toBe(false);
  });
});

describe('parseBody', () => {
  it('marks ||spoilers|| and leaves an unclosed marker as text', () => {
    expect(parseBody('she ||dies|| at the end')).toEqual([
      { kind: 'text', text: 'she ', spoiler: false },
      { kind: 'text', text: 'dies', spoiler: true },
      { kind: 'text', text: ' at the end', spoiler: false },
    ]);
    expect(parseBody('a || b')).toEqual([{ kind: 'text', text: 'a || b', spoiler: false }]);
    expect(parseBody('||x|| y ||z')).toEqual([
      { kind: 'text', text: 'x', spoiler: true },
      { kind: 'text', text: ' y ||z', spoiler: false },
    ]);
  });
  it('makes http(s) links, without the sentence punctuation, and nothing else', () => {
    expect(parseBody('see https://example.com/a?b=1. ok')).toEqual([
      { kind: 'text', text: 'see ', spoiler: false },
      { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1', spoiler: false },
      { kind: 'text', text: '. ok', spoiler: false },
    ]);
    expect(parseBody('javascript:alert(1) data:text/html,x').every((s) => s.kind === 'text')).toBe(true);
  });
});

describe('bodyHtml', () => {
  it('escapes every tag and quote, and links get rel="nofollow ugc"', () => {
    const html = bodyHtml(parseBody('<script>alert(1)</script> <img src=x onerror=alert(1)> "q" https://e.com/"x'), 'Spoiler');
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<a href="https://e.com/" rel="nofollow ugc noopener" target="_blank">https://e.com/</a>&quot;x');
  });
  it('hides spoilers in <details> and keeps line breaks', () => {
    expect(bodyHtml(parseBody('a\n||b||'), 'Show spoiler')).toBe('a<br><details class="c-spoiler"><summary>Show spoiler</summary>b</details>');
  });
  it('never makes a javascript: link', () => {
    expect(bodyHtml(parseBody('javascript:alert(document.cookie)'), 'S')).not.toContain('<a');
  });
});

describe('wilsonLowerBound', () => {
  it('is 0 without votes and grows with evidence at the same share', () => {
    expect(wilsonLowerBound(0, 0)).toBe(0);
    expect(wilsonLowerBound(0, 10)).toBeCloseTo(0, 10);
    expect(wilsonLowerBound(5, 10)).toBeLessThan(wilsonLowerBound(50, 100));
    // 1 like out of 1 view is not better than 90 out of 100.
    expect(wilsonLowerBound(1, 1)).toBeLessThan(wilsonLowerBound(90, 100));
  });
  it('matches the formula for 9 likes out of 10 views', () => {
    expect(wilsonLowerBound(9, 10)).toBeCloseTo(0.5958, 3);
  });
});

describe('pickBest', () => {
  it('takes at most three liked comments, most liked first, the newest on ties', () => {
    const c = (id: number, likes: number, createdAt = id) => ({ id, likes, createdAt });
    expect(pickBest([c(1, 0), c(2, 5), c(3, 1), c(4, 5), c(5, 9), c(6, 2)], 50).map((x) => x.id)).toEqual([5, 4, 2]);
    expect(pickBest([c(1, 0)], 10)).toEqual([]);
  });
});

describe('editable and parseCommentId', () => {
  it('allows editing for ten minutes', () => {
    expect(editable(1000, 1000 + EDIT_WINDOW)).toBe(true);
    expect(editable(1000, 1001 + EDIT_WINDOW)).toBe(false);
  });
  it('takes positive integers in range only', () => {
    expect(parseCommentId('12')).toBe(12);
    for (const bad of ['0', '-1', '01', '1e3', 'abc', '99999999999', undefined]) expect(parseCommentId(bad)).toBeNull();
  });
});
