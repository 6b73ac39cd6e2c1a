import { describe, expect, it } from 'vitest';
import { latin1Html, latin1Json } from './html';

const isLatin1 = (s: string) => [...s].every((c) => c.codePointAt(0)! <= 0xff);

describe('latin1Html', () => {
  it('escapes markup and writes wide characters as references the browser reads back', () => {
    const text = `Busque séries, "autores" & <gêneros>… 漫画 😀 'x'`;
    const html = latin1Html(text);
    expect(isLatin1(html)).toBe(true);
    expect(html).toBe('Busque séries, &quot;autores&quot; &amp; &lt;gêneros&gt;&#8230; &#28459;&#30011; &#128512; &#39;x&#39;');
  });

  it('leaves Latin-1 text alone apart from the markup characters', () => {
    expect(latin1Html('Ação · Capítulo 12½')).toBe('Ação · Capítulo 12½');
  });
});

describe('latin1Json', () => {
  it('round-trips any text through JSON.parse and stays Latin-1 and inside its script element', () => {
    const value = { placeholder: 'Search series, authors, tags…', name: '漫画 😀', close: '</script><b>', pt: 'gêneros' };
    const json = latin1Json(value);
    expect(isLatin1(json)).toBe(true);
    expect(json).not.toContain('</script');
    expect(JSON.parse(json)).toEqual(value);
  });
});
