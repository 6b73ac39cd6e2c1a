/**
 * Browser side of the schedule block (ScheduleBlock.astro) and the daily calendar: plain module,
 * no framework. Without it the page is complete (links to day sections, every day shown, times
 * in the site's zone). With it:
 *  - the day strip becomes a tablist (arrow keys, Home/End) showing one day at a time;
 *  - days and months are recomputed in the reader's own zone when the site lets them
 *    (`Site.scheduleZone`; always when the day changed) and the entries (embedded JSON
 *    times, `data-at` on each entry) are moved to the day and month they fall on there;
 *  - release statuses (RELEASED / "in 3 hours") refresh every 60 s.
 * Anything unexpected leaves the server-rendered page as it is.
 */
import { REFRESH_MS, displayZone, isReleased, periodIndex, scheduleDays, scheduleMonths, type Period, type ScheduleVariant } from './dates';
import type { Locale } from '~/lib/site';
import { relativeTime, clockLabel, dayKey, dayLabels, isTimeZone, monthLabel, zoneLabel } from '~/lib/dates';

interface ScheduleJson {
  variant: ScheduleVariant;
  zone: string;
  zoneRule: 'site' | 'reader';
  locale: Locale;
  now: number;
  prefix: string;
  labels: { today: string; released: string; count: { zero: string; one: string; other: string }; zone: string };
  days: string[];
  months: string[];
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export function readerZone(): string | null {
  try {
    const z = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return z && isTimeZone(z) ? z : null;
  } catch {
    return null;
  }
}

function countText(labels: ScheduleJson['labels'], locale: string, n: number): string {
  if (n === 0) return labels.count.zero;
  const rule = new Intl.PluralRules(locale).select(n);
  return (rule === 'one' ? labels.count.one : labels.count.other).replace('#', String(n));
}

function sortByTime(list: Element) {
  const items = [...list.children].sort((a, b) => Number((a as HTMLElement).dataset.at) - Number((b as HTMLElement).dataset.at));
  list.append(...items);
}

/** Moves `[data-at]` entries of `lists` (and the spare list) into the period they fall on. */
function rebucket(lists: HTMLElement[], spare: HTMLElement | null, periods: Period[]) {
  const all = [...lists, ...(spare ? [spare] : [])].flatMap((l) => [...l.querySelectorAll<HTMLElement>(':scope > [data-at]')]);
  for (const item of all) {
    const i = periodIndex(Number(item.dataset.at), periods);
    const target = i >= 0 ? lists[i] : spare;
    if (target && item.parentElement !== target) target.append(item);
  }
  for (const list of lists) {
    sortByTime(list);
    const empty = list.parentElement?.querySelector<HTMLElement>(':scope > [data-empty]');
    if (empty) empty.hidden = list.children.length > 0;
  }
}

/** RELEASED or the time until release, for every entry under `root`. */
export function refreshStatuses(root: ParentNode, locale: Locale, released: string, now = nowSeconds()) {
  for (const item of root.querySelectorAll<HTMLElement>('[data-release-item]')) {
    const at = Number(item.dataset.at);
    const status = item.querySelector<HTMLElement>('[data-status]');
    if (!status || !Number.isFinite(at)) continue;
    const done = isReleased(at, now);
    const text = done ? released : relativeTime(at, now, locale);
    if (status.textContent !== text) status.textContent = text;
    status.classList.toggle('is-released', done);
  }
}

/**
 * Centres `tab` in the strip by scrolling the strip alone. Never scrollIntoView here: it also
 * scrolls every scrollable ancestor, and on a phone the page jumped ~1,200 px down on load to
 * the home page's schedule.
 */
export function scrollStripTo(strip: HTMLElement, tab: HTMLElement, reduceMotion: boolean) {
  const max = strip.scrollWidth - strip.clientWidth;
  if (max <= 0) return;
  const s = strip.getBoundingClientRect();
  const t = tab.getBoundingClientRect();
  const left = Math.min(max, Math.max(0, strip.scrollLeft + (t.left - s.left) - (strip.clientWidth - t.width) / 2));
  strip.scrollTo({ left, behavior: reduceMotion ? 'auto' : 'smooth' });
}

function initTabs(root: HTMLElement, prefix: string, reduceMotion: boolean) {
  const strip = root.querySelector<HTMLElement>('[data-strip]');
  if (!strip) return;
  const tabs = [...strip.querySelectorAll<HTMLAnchorElement>('[data-tab]')];
  const panels = [...root.querySelectorAll<HTMLElement>('[data-panel]')];
  if (tabs.length === 0 || tabs.length !== panels.length) return;
  root.classList.add('is-tabs');
  strip.setAttribute('role', 'tablist');
  strip.setAttribute('aria-label', root.querySelector('[data-strip-wrap]')?.getAttribute('aria-label') ?? '');
  for (const li of strip.children) li.setAttribute('role', 'presentation');
  tabs.forEach((tab, i) => {
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-controls', panels[i]!.id);
    panels[i]!.setAttribute('role', 'tabpanel');
    panels[i]!.setAttribute('aria-labelledby', tab.id);
    panels[i]!.tabIndex = 0;
  });
  const select = (index: number, focus = false) => {
    tabs.forEach((tab, i) => {
      const on = i === index;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      panels[i]!.hidden = !on;
      // The stylesheet shows the selected day (the server's choice before this script ran).
      panels[i]!.toggleAttribute('data-selected', on);
    });
    const tab = tabs[index]!;
    if (focus) tab.focus();
    const wrap = root.querySelector<HTMLElement>('[data-strip-wrap]');
    if (wrap) scrollStripTo(wrap, tab, reduceMotion);
  };
  const initial = Math.max(0, tabs.findIndex((t) => t.classList.contains('is-today')));
  select(initial);
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', (e) => {
      e.preventDefault();
      select(i);
    });
    tab.addEventListener('keydown', (e) => {
      const last = tabs.length - 1;
      const target = e.key === 'ArrowRight' ? (i + 1) % tabs.length : e.key === 'ArrowLeft' ? (i - 1 + tabs.length) % tabs.length : e.key === 'Home' ? 0 : e.key === 'End' ? last : -1;
      if (target < 0) return;
      e.preventDefault();
      select(target, true);
    });
  });
  // A link to a day (#sched-page-2026-11-21) opens that day.
  const fromHash = () => {
    const i = panels.findIndex((p) => `#${p.id}` === location.hash);
    if (i >= 0) select(i);
  };
  fromHash();
  addEventListener('hashchange', fromHash);
  void prefix;
}

/** Recomputes days and months in `zone`; relabels the strip and moves the entries. */
function layout(root: HTMLElement, cfg: ScheduleJson, zone: string, now: number) {
  const days = scheduleDays(now, zone, cfg.variant);
  const months = scheduleMonths(now, zone);
  const tabs = [...root.querySelectorAll<HTMLElement>('[data-tab]')];
  const panels = [...root.querySelectorAll<HTMLElement>('[data-panel]')];
  if (tabs.length !== days.length || panels.length !== days.length) return;
  days.forEach((d, i) => {
    const l = dayLabels(d.key, cfg.locale);
    const tab = tabs[i]!;
    tab.classList.toggle('is-today', d.today);
    tab.classList.toggle('is-past', d.past);
    if (d.today) tab.setAttribute('aria-current', 'date');
    else tab.removeAttribute('aria-current');
    tab.querySelector('[data-wd]')!.textContent = d.today ? cfg.labels.today : l.weekday;
    tab.querySelector('[data-date]')!.textContent = l.date;
    panels[i]!.dataset.day = d.key;
    panels[i]!.querySelector('[data-heading]')!.textContent = d.today ? `${cfg.labels.today} · ${l.full}` : l.full;
  });
  rebucket(panels.map((p) => p.querySelector<HTMLElement>('[data-day-list]')!), root.querySelector('[data-spare-days]'), days);
  panels.forEach((p, i) => {
    const n = p.querySelector('[data-day-list]')!.children.length;
    tabs[i]!.querySelector('[data-count]')!.textContent = String(n);
    const text = tabs[i]!.querySelector('[data-count-text]');
    if (text) text.textContent = countText(cfg.labels, cfg.locale, n);
  });
  const monthSections = [...root.querySelectorAll<HTMLElement>('[data-month]')];
  if (monthSections.length === months.length) {
    months.forEach((m, i) => { monthSections[i]!.querySelector('[data-month-heading]')!.textContent = monthLabel(m, cfg.locale); });
    rebucket(monthSections.map((s) => s.querySelector<HTMLElement>('[data-month-list]')!), root.querySelector('[data-spare-months]'), months);
  }
  for (const el of root.querySelectorAll<HTMLElement>('[data-release-item]')) {
    const at = Number(el.dataset.at);
    const clock = el.querySelector('[data-clock]');
    if (clock) clock.textContent = clockLabel(at, cfg.locale, zone);
    const mdate = el.querySelector('[data-mdate]');
    if (mdate) mdate.textContent = dayLabels(dayKey(at, zone), cfg.locale).date;
  }
  const note = root.querySelector('[data-zone-note]');
  if (note) note.textContent = cfg.labels.zone.replace('{zone}', zoneLabel(zone, cfg.locale));
}

function initSchedule(root: HTMLElement) {
  const raw = root.querySelector('[data-schedule-json]')?.textContent;
  if (!raw) return;
  const cfg = JSON.parse(raw) as ScheduleJson;
  const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const zone = displayZone(cfg.zoneRule, cfg.zone, readerZone());
  let today = dayKey(nowSeconds(), zone);
  // The server laid the page out for its own clock and zone; redo it for the reader's.
  if (zone !== cfg.zone || dayKey(cfg.now, cfg.zone) !== dayKey(nowSeconds(), cfg.zone)) layout(root, cfg, zone, nowSeconds());
  // Shown again now that its days are the reader's (ScheduleBlock.astro hid it until then).
  root.classList.remove('is-relayout');
  initTabs(root, cfg.prefix, reduceMotion);
  refreshStatuses(root, cfg.locale, cfg.labels.released);
  setInterval(() => {
    const now = nowSeconds();
    const key = dayKey(now, zone);
    if (key !== today) {
      // Midnight passed: the window moves by a day.
      today = key;
      layout(root, cfg, zone, now);
      const i = [...root.querySelectorAll<HTMLElement>('[data-tab]')].findIndex((t) => t.classList.contains('is-today'));
      root.querySelectorAll<HTMLElement>('[data-tab]')[Math.max(0, i)]?.click();
    }
    refreshStatuses(root, cfg.locale, cfg.labels.released, now);
  }, REFRESH_MS);
}

export function initSchedules() {
  for (const root of document.querySelectorAll<HTMLElement>('[data-schedule]')) {
    if (root.dataset.enhanced) continue;
    root.dataset.enhanced = '1';
    try {
      initSchedule(root);
    } catch {
      // Leave the server-rendered schedule as it is.
    }
  }
}
