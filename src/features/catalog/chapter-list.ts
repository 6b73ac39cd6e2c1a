/**
 * The series page's chapter rows as one HTML string. A series page lists up to 100 rows per
 * language; rendering them as Astro components cost more than everything else on the page
 * together (per-component promises and attribute handling), so the rows are built here with
 * explicit escaping. Pure: unit-tested in chapter-list.test.ts.
 */
import type { ListItem } from './rules';
import type { ChapterView } from './series.server';
import { loginPath, mediaUrl, UNLOCK_FORM_PATH } from '~/lib/paths';
import { escapeHtml } from '~/lib/html';
import { withIntent } from '~/lib/intent';

export interface RowLabels {
  /** Comment counts on the rows (the comments feature's, passed by the page): per chapter id, the label and the chapter's comments page. */
  comments?: { counts: ReadonlyMap<number, number>; label: (n: number) => string; href: (e4pid: string) => string };
  free: string;
  keys: (n: number) => string;
  was: (price: string) => string;
  loginToRead: string;
  scheduled: string;
  comingSoon: string;
  /** 'Read Again' / 'Reler' and 'Continue' / 'Continuar' for the signed-in reader's rows. */
  readAgain?: string;
  continue?: string;
  /** The signed-in reader's rows: unlock button, owned and rented chips, the daily pass. */
  unlock?: string;
  owned?: string;
  /** A plan rental ("Rented"). */
  rented?: string;
  /** A chapter opened free for a while by the daily pass or an ad: "Free read", never "Rented" (issue 26). */
  freeRead?: string;
  /** The chip of a chapter read through the reader's subscription to the series. */
  subscribed?: string;
  /** "ends {when}" after a rental or a free period. */
  ends?: (when: string) => string;
  /** On each row the pass can open now. While it recharges, the series header says when, once. */
  passReady?: string;
  unavailable?: string;
  /**
   * Staff with `content` only: each row's link-generation button ("Copy link"), which posts the
   * row's reader path as `path` to `action` (POST /_/dynamic_link). Rows are inside the unlock
   * form for a signed-in reader, so the button takes that form with its own `formaction`.
   */
  share?: { label: string; action: string };
}


/** Labels escaped once per list instead of once per row. */
interface Escaped {
  /** The row's comment-count link, or ''. */
  comments: (c: ChapterView) => string;
  free: string;
  keys: (n: number) => string;
  was: (n: number) => string;
  loginToRead: string;
  scheduled: string;
  readAgain: string;
  continue: string;
  /** A paid row's login link: back to this page with the unlock dialog reopened for its chapter. */
  login: (e4pid: string) => string;
  unlock: string;
  /** ` aria-label="Unlock: ` : the start of a row's unlock button name (the chapter's name follows). */
  unlockName: string;
  owned: string;
  rented: string;
  freeRead: string;
  subscribed: string;
  ends: string;
  passReady: string;
  unavailable: string;
  /** The share button up to its value (empty when the reader is not content staff), and its label. */
  shareHead: string;
  shareTail: string;
}

/** Splits a label around its {when} so the time can be its own refreshable element. */
const around = (f: ((when: string) => string) | undefined) => escapeHtml(f ? f('\u0000') : '\u0000');

/** Stands for a row's chapter in the login link built once per list (e4pids need no escaping). */
const CHAPTER_SLOT = 'EPI-0chapter0';

function escapeLabels(labels: RowLabels, returnPath: string): Escaped {
  const template = escapeHtml(loginPath(withIntent(returnPath, { kind: 'unlock', e4pid: CHAPTER_SLOT })));
  // A return path that is not a local path carries no intent: the link is the same for every row.
  const [loginHead = '', loginTail] = template.split(CHAPTER_SLOT);
  const keys = new Map<number, string>();
  const was = new Map<number, string>();
  const price = (n: number) => (n === 0 ? labels.free : labels.keys(n));
  const commentLabels = new Map<number, string>();
  const cm = labels.comments;
  return {
    comments: cm ? (c) => {
      const n = cm.counts.get(c.id) ?? 0;
      if (n <= 0 || c.state === 'scheduled') return '';
      const text = commentLabels.get(n) ?? (commentLabels.set(n, escapeHtml(cm.label(n))), commentLabels.get(n)!);
      return `<a class="chapter-comments" href="${escapeHtml(cm.href(c.e4pid))}">${text}</a>`;
    } : () => '',
    free: escapeHtml(labels.free),
    keys: (n) => keys.get(n) ?? (keys.set(n, escapeHtml(price(n))), keys.get(n)!),
    was: (n) => was.get(n) ?? (was.set(n, escapeHtml(labels.was(price(n)))), was.get(n)!),
    loginToRead: escapeHtml(labels.loginToRead),
    scheduled: escapeHtml(labels.scheduled),
    readAgain: escapeHtml(labels.readAgain ?? ''),
    continue: escapeHtml(labels.continue ?? ''),
    login: loginTail === undefined ? () => loginHead : (e4pid) => `${loginHead}${escapeHtml(e4pid)}${loginTail}`,
    unlock: escapeHtml(labels.unlock ?? ''),
    unlockName: ` aria-label="${escapeHtml(labels.unlock ?? '')}: `,
    owned: escapeHtml(labels.owned ?? ''),
    rented: escapeHtml(labels.rented ?? ''),
    freeRead: escapeHtml(labels.freeRead ?? labels.rented ?? ''),
    subscribed: escapeHtml(labels.subscribed ?? labels.owned ?? ''),
    ends: around(labels.ends),
    passReady: escapeHtml(labels.passReady ?? ''),
    unavailable: escapeHtml(labels.unavailable ?? ''),
    shareHead: labels.share ? `<button class="btn-share" formaction="${escapeHtml(labels.share.action)}" formmethod="post" formnovalidate name="path" data-share aria-label="${escapeHtml(labels.share.label)}: ` : '',
    shareTail: labels.share ? escapeHtml(labels.share.label) : '',
  };
}

/**
 * One row. `data-relative` (the instant the browser keeps a relative date fresh from) is only
 * written on dates shown relatively; older ones are plain dates that never change.
 */
function row(c: ChapterView, e: Escaped, signedIn: boolean): string {
  const thumb = mediaUrl(c.thumbnail);
  const img = thumb ? `<img src="${escapeHtml(thumb)}" width="96" height="54" alt="" loading="lazy" decoding="async">` : '';
  const title = c.title
    ? `<span class="chapter-title">${escapeHtml(c.title)}${c.subtitle ? `<span class="muted"> · ${escapeHtml(c.subtitle)}</span>` : ''}</span>`
    : '';
  const scheduled = c.state === 'scheduled';
  const date = scheduled
    ? `<span class="chip">${e.scheduled}</span> <time datetime="${c.iso}" data-countdown="${c.releasedAt}">${escapeHtml(c.dateText)}</time>`
    : `<time datetime="${c.iso}"${c.relative ? ` data-relative="${c.releasedAt}"` : ''}>${escapeHtml(c.dateText)}</time>`;
  const name = escapeHtml(c.name);
  const text = `${img}<span class="chapter-text"><span class="chapter-name">${name}</span>${title}<span class="chapter-date">${date}</span></span>`;
  const main = scheduled ? `<div class="chapter-main" aria-disabled="true">${text}</div>` : `<a class="chapter-main" href="${escapeHtml(c.href)}">${text}</a>`;
  let side = '';
  if (c.state === 'free') side = `<span class="price price-free">${e.free}</span>`;
  else if (c.state === 'unlocked') {
    const free = c.reason === 'daily_pass' || c.reason === 'ad_rental';
    const rental = free || c.reason === 'rental';
    const chip = free ? e.freeRead : rental ? e.rented : c.reason === 'subscription' ? e.subscribed : e.owned;
    side = `<span class="chip chip-owned">${chip}</span>${rental && c.readableUntil ? until(e.ends, c.readableUntil, c.untilText) : ''}`;
  } else if (c.state === 'unavailable') side = `<span class="chip">${e.unavailable}</span>`;
  else if (c.state === 'paid') {
    const was = c.onSale
      ? `<s class="price-was"><span aria-hidden="true">${e.keys(c.originalPrice)}</span><span class="visually-hidden">${e.was(c.originalPrice)}</span></s>`
      : '';
    const price = `<span class="price">${was}<span class="price-now${c.onSale ? ' sale' : ''}">${e.keys(c.finalPrice)}</span></span>`;
    // A recharging pass is the same for every row: the series header counts it down once.
    const pass = c.pass?.open ? `<span class="chip chip-pass">${e.passReady}</span>` : '';
    if (!signedIn) side = `${price}<a class="login-to-read" href="${e.login(c.e4pid)}">${e.loginToRead}</a>`;
    else if (c.buyable || c.pass?.open || c.ad || c.rentLeft !== null) side = `${pass}${price}${listUnlockButton(c, e, name)}`;
    else side = `${pass}${price}`;
  }
  side = e.comments(c) + side;
  if (e.shareHead) side += `${e.shareHead}${name}" value="${escapeHtml(c.href)}">${e.shareTail}</button>`;
  const readLabel = c.read === 'read' ? e.readAgain : c.read === 'reading' ? e.continue : '';
  if (readLabel) side = `<span class="read-state read-state-${c.read}">${readLabel}</span>${side}`;
  const classes = `chapter-row is-${c.state}${c.onSale ? ' is-sale' : ''}${c.read ? ` is-${c.read}` : ''}${c.highlighted ? ' is-highlighted' : ''}`;
  return `<li class="${classes}" data-number="${c.number}"${c.highlighted ? ' data-highlighted' : ''}>${main}<span class="chapter-side">${side}</span></li>`;
}

/** "ends in 3 hours": the time is its own element so the page script keeps it fresh. */
function until(label: string, at: number, text: string | null): string {
  const [before = '', after = ''] = label.split('\u0000');
  return `<span class="until">${before}<time datetime="${new Date(at * 1000).toISOString()}" data-countdown="${at}">${escapeHtml(text ?? '')}</time>${after}</span>`;
}

/** What the unlock dialog (wallet feature) shows for a chapter (unlockButtonHtml writes it into the button). */
export interface UnlockOffer {
  e4pid: string;
  name: string;
  /** The chapter's reader path: where a successful unlock by daily pass or ad goes. */
  href: string;
  price: number;
  original: number;
  bonus: number;
  /** The daily pass is open for it now. */
  pass: boolean;
  /** An ad rental is open for it now. */
  ad: boolean;
  /** A plan rental is open for it now: the plan's rentals left this month; null when closed. */
  rent: number | null;
}

/**
 * The form unlock buttons submit. On the series page it wraps the chapter lists (the page
 * renders it around them), so a row's button needs no `form` attribute; elsewhere (the reader's
 * locked view) it is placed once, empty, and the button names it.
 */
export const UNLOCK_FORM = { id: 'unlock-form', class: 'unlock-form', method: 'post', action: UNLOCK_FORM_PATH } as const;
export function unlockFormElement(): string {
  return `<form id="${UNLOCK_FORM.id}" class="${UNLOCK_FORM.class}" method="${UNLOCK_FORM.method}" action="${UNLOCK_FORM.action}" hidden></form>`;
}

/** The offer's `data-*` attributes, which the dialog reads (unlock-dialog.ts, offerFrom). */
function offerData(price: number, original: number, pass: boolean, ad: boolean, rent: number | null): string {
  return `data-price="${price}"${original > price ? ` data-was="${original}"` : ''}${pass ? ' data-pass' : ''}${ad ? ' data-ad' : ''}${rent !== null ? ` data-rent="${rent}"` : ''}`;
}

/**
 * Unlocking without JavaScript: a button that submits the unlock form (see UNLOCK_FORM) with
 * the chapter as `content`, and opens it. With JavaScript the same button opens the unlock
 * dialog, which reads the offer from the button's data (`data-price`, `data-was` on a sale,
 * `data-pass` and `data-ad` when those ways are open, `data-rent` with the plan's rentals left
 * when a plan rental is) and the chapter's name and link from `data-name` / `data-href`, or from
 * its row in a list (listUnlockButton). Its accessible name says which chapter ("Unlock: Chapter
 * 12") and starts with the visible word. `label` and `name` are HTML-escaped text. The unlock
 * script marks the buttons `aria-haspopup` once it can open the dialog.
 */
export function unlockButtonHtml(offer: UnlockOffer, label: string, name: string, className = 'btn btn-unlock'): string {
  const data = offerData(offer.price, offer.original, offer.pass, offer.ad, offer.rent);
  return `<button class="${className}" form="${UNLOCK_FORM.id}" name="content" value="${escapeHtml(offer.e4pid)}" ${data} data-name="${name}" data-href="${escapeHtml(offer.href)}" aria-label="${label}: ${name}">${label}</button>`;
}

/**
 * A row's unlock button: inside the form the series page wraps around its lists (no `form`
 * attribute), the chapter's name and link read from the row, and the list button's look from
 * `.btn-unlock` alone. A page lists up to 100 paid rows, and every byte of a row is rendered and
 * compressed a hundred times (docs/performance.md).
 */
function listUnlockButton(c: ChapterView, e: Escaped, name: string): string {
  const data = offerData(c.finalPrice, c.originalPrice, c.pass?.open === true, c.ad, c.rentLeft);
  return `<button class="btn-unlock" name="content" value="${escapeHtml(c.e4pid)}" ${data}${e.unlockName}${name}">${e.unlock}</button>`;
}

/** Rows and coming-soon gaps of one language tab, ready to place inside its `<ol>`. */
export function renderChapterRows(items: readonly ListItem<ChapterView>[], labels: RowLabels, returnPath: string, signedIn = false): string {
  const escaped = escapeLabels(labels, returnPath);
  const gap = `<li class="chapter-gap" data-gap>${escapeHtml(labels.comingSoon)}</li>`;
  // Joined, not concatenated: one flat string instead of a tree of thousands of small ones. The
  // page's Response keeps its body text until a full garbage collection (undici registers every
  // Response for finalization), so a tree would survive and be copied by every young-generation
  // collection in between; one flat string costs next to nothing there.
  const parts: string[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    parts[i] = item.kind === 'gap' ? gap : row(item.chapter, escaped, signedIn);
  }
  return parts.join('');
}
