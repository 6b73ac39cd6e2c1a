/**
 * The series page's chapter rows as one HTML string. A series page lists up to 100 rows per
 * language; rendering them as Astro components cost more than everything else on the page
 * together (per-component promises and attribute handling), so the rows are built here with
 * explicit escaping. Pure: unit-tested in chapter-list.test.ts.
 */
import type { ListItem } from './rules';
import type { ChapterView } from './series.server';
import { mediaUrl } from './media';
import { loginPath } from '../reader/urls';

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

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]!);
}

function price(labels: RowLabels, n: number): string {
  return n === 0 ? labels.free : labels.keys(n);
}

function row(c: ChapterView, labels: RowLabels, login: string): string {
  const thumb = mediaUrl(c.thumbnail);
  const img = thumb ? `<img src="${escapeHtml(thumb)}" width="96" height="54" alt="" loading="lazy" decoding="async">` : '';
  const title = c.title
    ? `<span class="chapter-title">${escapeHtml(c.title)}${c.subtitle ? `<span class="muted"> · ${escapeHtml(c.subtitle)}</span>` : ''}</span>`
    : '';
  const scheduled = c.state === 'scheduled';
  const date = scheduled
    ? `<span class="chip">${escapeHtml(labels.scheduled)}</span> <time datetime="${c.iso}" data-countdown="${c.releasedAt}">${escapeHtml(c.dateText)}</time>`
    : `<time datetime="${c.iso}" data-relative="${c.releasedAt}">${escapeHtml(c.dateText)}</time>`;
  const text = `${img}<span class="chapter-text"><span class="chapter-name">${escapeHtml(c.name)}</span>${title}<span class="chapter-date">${date}</span></span>`;
  const main = scheduled ? `<div class="chapter-main" aria-disabled="true">${text}</div>` : `<a class="chapter-main" href="${escapeHtml(c.href)}">${text}</a>`;
  let side = '';
  if (c.state === 'free') side = `<span class="price price-free">${escapeHtml(labels.free)}</span>`;
  else if (c.state === 'paid') {
    const was = c.onSale
      ? `<s class="price-was"><span aria-hidden="true">${escapeHtml(price(labels, c.originalPrice))}</span><span class="visually-hidden">${escapeHtml(labels.was(price(labels, c.originalPrice)))}</span></s>`
      : '';
    side = `<span class="price">${was}<span class="price-now${c.onSale ? ' sale' : ''}">${escapeHtml(price(labels, c.finalPrice))}</span></span><a class="login-to-read" href="${login}">${escapeHtml(labels.loginToRead)}</a>`;
  }
  const readLabel = c.read === 'read' ? labels.readAgain : c.read === 'reading' ? labels.continue : undefined;
  if (readLabel) side = `<span class="read-state read-state-${c.read}">${escapeHtml(readLabel)}</span>${side}`;
  const classes = `chapter-row is-${c.state}${c.onSale ? ' is-sale' : ''}${c.read ? ` is-${c.read}` : ''}${c.highlighted ? ' is-highlighted' : ''}`;
  return `<li class="${classes}" data-number="${c.number}"${c.highlighted ? ' data-highlighted' : ''}>${main}<span class="chapter-side">${side}</span></li>`;
}

/** Rows and coming-soon gaps of one language tab, ready to place inside its `<ol>`. */
export function renderChapterRows(items: readonly ListItem<ChapterView>[], labels: RowLabels, returnPath: string): string {
  const login = escapeHtml(loginPath(returnPath));
  let html = '';
  for (const item of items) {
    html += item.kind === 'gap' ? `<li class="chapter-gap" data-gap>${escapeHtml(labels.comingSoon)}</li>` : row(item.chapter, labels, login);
  }
  return html;
}
