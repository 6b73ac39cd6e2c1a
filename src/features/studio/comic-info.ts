/**
 * ComicInfo.xml (the ComicRack metadata most CBZ tools write): the few fields a chapter draft
 * takes from it. A hand parser on purpose (docs/decisions.md, "Chapter uploads"): we read four
 * elements from a file of a few KB, and a parser that expands nothing cannot be made to fetch
 * external entities or blow up on nested ones. A file that declares a DOCTYPE or entities is
 * not read at all.
 */

export interface ComicInfo {
  title: string | null;
  /** The chapter number as written (`12`, `12.5`), when it is one. */
  number: number | null;
  summary: string | null;
  /**
   * The page order: indexes into the archive's images in natural name order, when `<Pages>`
   * lists each of them exactly once (checked against the count by `comicInfoOrder`).
   */
  pages: number[] | null;
}

/** A ComicInfo.xml larger than this is not read (real ones are a few KB). */
export const COMIC_INFO_MAX_BYTES = 256 * 1024;

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    // Controls and lone surrogates would be refused by the databases (src/server/body.ts).
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) || (code < 0x20 && code !== 9 && code !== 10 && code !== 13) || code === 0x7f) return '';
    return String.fromCodePoint(code);
  });
}

function element(xml: string, name: string, max: number): string | null {
  const match = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}\\s*>`).exec(xml);
  if (!match) return null;
  const raw = match[1]!;
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(raw);
  const text = (cdata ? cdata[1]! : decodeEntities(raw.replace(/<[^>]*>/g, '')))
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .trim();
  return text ? text.slice(0, max) : null;
}

/** The fields we use, or null when the text is not a ComicInfo document we are willing to read. */
export function parseComicInfo(text: string): ComicInfo | null {
  if (text.length > COMIC_INFO_MAX_BYTES || /<!(DOCTYPE|ENTITY)/i.test(text)) return null;
  const body = /<ComicInfo\b[^>]*>([\s\S]*)<\/ComicInfo\s*>/.exec(text.replace(/<!--[\s\S]*?-->/g, ''));
  if (!body) return null;
  const xml = body[1]!;
  const numberText = element(xml, 'Number', 32);
  const number = numberText && /^\d{1,6}(\.\d{1,3})?$/.test(numberText) ? Number(numberText) : null;
  let pages: number[] | null = null;
  const list = /<Pages(?:\s[^>]*)?>([\s\S]*?)<\/Pages\s*>/.exec(xml);
  if (list) {
    pages = [];
    for (const page of list[1]!.matchAll(/<Page\b([^>]*?)\/?>/g)) {
      const image = /\bImage\s*=\s*["'](\d{1,5})["']/.exec(page[1]!);
      if (!image) {
        pages = null;
        break;
      }
      pages.push(Number(image[1]));
    }
    if (pages?.length === 0) pages = null;
  }
  return { title: element(xml, 'Title', 200), number, summary: element(xml, 'Summary', 4000), pages };
}

/**
 * The page order ComicInfo gives for `count` images: `pages` when it is a permutation of
 * 0..count-1, else null (a list that skips or repeats pages, or names pages the archive does
 * not have, is ignored rather than trusted).
 */
export function comicInfoOrder(info: ComicInfo | null, count: number): number[] | null {
  const pages = info?.pages;
  if (!pages || pages.length !== count) return null;
  const seen = new Set(pages);
  if (seen.size !== count || pages.some((p) => p >= count)) return null;
  return pages;
}
