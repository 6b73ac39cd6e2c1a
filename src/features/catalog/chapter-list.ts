/**
 * The series page's chapter rows as one HTML string. A series page lists up to 100 rows per
 * language; rendering them as Astro components cost more than everything else on the page
 * together (per-component promises and attribute handling), so the rows are built here with
 * explicit escaping. Pure: unit-tested in chapter-list.test.ts.
 */
import type { ListItem } from './rules';
import type { ChapterView } from './series.server';
import { loginPath, mediaUrl } from '~/lib/paths';
import { escapeHtml } from '~/lib/html';

export interface RowLabels {
  free: string;
  keys: (n: number) => string;
  was: (price: string) => string;
  loginToRead: string;
  scheduled: string;
  comingSoon: string;
  /** 'Read Again' / 'Reler' and 'Continue' / 'Continuar' for the signed-in reader's rows. */
  readAgain?: string;
  continue?: string;
}


/** Labels escaped once per list instead of once per row. */
interface Escaped {
  free: string;
  keys: (n: number) => string;
  was: (n: number) => string;
  loginToRead: string;
  scheduled: string;
  readAgain: string;
  continue: string;
  login: string;
}

function escapeLabels(labels: RowLabels, login: string): Escaped {
  const keys = new Map<number, string>();
  const was = new Map<number, string>();
  const price = (n: number) => (n === 0 ? labels.free : labels.keys(n));
  return {
    free: escapeHtml(labels.free),
    keys: (n) => keys.get(n) ?? (keys.set(n, escapeHtml(price(n))), keys.get(n)!),
    was: (n) => was.get(n) ?? (was.set(n, escapeHtml(labels.was(price(n)))), was.get(n)!),
    loginToRead: escapeHtml(labels.loginToRead),
    scheduled: escapeHtml(labels.scheduled),
    readAgain: escapeHtml(labels.readAgain ?? ''),
    continue: escapeHtml(labels.continue ?? ''),
    login: escapeHtml(login),
  };
}

/**
 * One row. `data-relative` (the instant the browser keeps a relative date fresh from) is only
 * written on dates shown relatively; older ones are plain dates that never change.
 */
function row(c: ChapterView, e: Escaped): string {
  const thumb = mediaUrl(c.thumbnail);
  const img = thumb ? `<img src="${escapeHtml(thumb)}" width="96" height="54" alt="" loading="lazy" decoding="async">` : '';
  const title = c.title
    ? `<span class="chapter-title">${escapeHtml(c.title)}${c.subtitle ? `<span class="muted"> · ${escapeHtml(c.subtitle)}</span>` : ''}</span>`
    : '';
  const scheduled = c.state === 'scheduled';
  const date = scheduled
    ? `<span class="chip">${e.scheduled}</span> <time datetime="${c.iso}" data-countdown="${c.releasedAt}">${escapeHtml(c.dateText)}</time>`
    : `<time datetime="${c.iso}"${c.relative ? ` data-relative="${c.releasedAt}"` : ''}>${escapeHtml(c.dateText)}</time>`;
  const text = `${img}<span class="chapter-text"><span class="chapter-name">${escapeHtml(c.name)}</span>${title}<span class="chapter-date">${date}</span></span>`;
  const main = scheduled ? `<div class="chapter-main" aria-disabled="true">${text}</div>` : `<a class="chapter-main" href="${escapeHtml(c.href)}">${text}</a>`;
  let side = '';
  if (c.state === 'free') side = `<span class="price price-free">${e.free}</span>`;
  else if (c.state === 'paid') {
    const was = c.onSale
      ? `<s class="price-was"><span aria-hidden="true">${e.keys(c.originalPrice)}</span><span class="visually-hidden">${e.was(c.originalPrice)}</span></s>`
      : '';
    side = `<span class="price">${was}<span class="price-now${c.onSale ? ' sale' : ''}">${e.keys(c.finalPrice)}</span></span><a class="login-to-read" href="${e.login}">${e.loginToRead}</a>`;
  }
  const readLabel = c.read === 'read' ? e.readAgain : c.read === 'reading' ? e.continue : '';
  if (readLabel) side = `<span class="read-state read-state-${c.read}">${readLabel}</span>${side}`;
  const classes = `chapter-row is-${c.state}${c.onSale ? ' is-sale' : ''}${c.read ? ` is-${c.read}` : ''}${c.highlighted ? ' is-highlighted' : ''}`;
  return `<li class="${classes}" data-number="${c.number}"${c.highlighted ? ' data-highlighted' : ''}>${main}<span class="chapter-side">${side}</span></li>`;
}

/** Rows and coming-soon gaps of one language tab, ready to place inside its `<ol>`. */
export function renderChapterRows(items: readonly ListItem<ChapterView>[], labels: RowLabels, returnPath: string): string {
  const escaped = escapeLabels(labels, loginPath(returnPath));
  const gap = `<li class="chapter-gap" data-gap>${escapeHtml(labels.comingSoon)}</li>`;
  // Joined, not concatenated: one flat string instead of a tree of thousands of small ones. The
  // page's Response keeps its body text until a full garbage collection (undici registers every
  // Response for finalization), so a tree would survive and be copied by every young-generation
  // collection in between; one flat string costs next to nothing there.
  const parts: string[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    parts[i] = item.kind === 'gap' ? gap : row(item.chapter, escaped);
  }
  return parts.join('');
}
