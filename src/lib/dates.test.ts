import { describe, expect, it } from 'vitest';
import { absoluteDate, addDays, chapterDate, clockLabel, dateDisplay, dayKey, dayLabels, dayNumber, fromLocalInput, isTimeZone, localInputValue, longDateTimeLabel, monthLabel, relativeTime, startOfDay, weekdayOf, zoneLabel, zoneOffset } from './dates';

const DAY = 86400;
const SP = 'America/Sao_Paulo';
const utc = (iso: string) => Date.parse(iso) / 1000;

describe('dayKey and startOfDay', () => {
  it('puts 02:59Z on the previous São Paulo day and 03:00Z on the next', () => {
    expect(dayKey(utc('2026-11-21T02:59:59Z'), SP)).toBe('2026-11-20');
    expect(dayKey(utc('2026-11-21T03:00:00Z'), SP)).toBe('2026-11-21');
    // In UTC both are the 21st.
    expect(dayKey(utc('2026-11-21T02:59:59Z'), 'UTC')).toBe('2026-11-21');
  });

  it('starts a São Paulo day at 03:00Z and a UTC day at 00:00Z', () => {
    expect(startOfDay('2026-11-21', SP)).toBe(utc('2026-11-21T03:00:00Z'));
    expect(startOfDay('2026-11-21', 'UTC')).toBe(utc('2026-11-21T00:00:00Z'));
    expect(zoneOffset(utc('2026-11-21T12:00:00Z'), SP)).toBe(-3 * 3600);
  });

  it('handles a day whose midnight was skipped by daylight saving (São Paulo, 4 Nov 2018)', () => {
    // Clocks jumped from 00:00 (-03) to 01:00 (-02): the day began at 03:00Z.
    const start = startOfDay('2018-11-04', SP);
    expect(start).toBe(utc('2018-11-04T03:00:00Z'));
    expect(dayKey(start, SP)).toBe('2018-11-04');
    expect(dayKey(start - 1, SP)).toBe('2018-11-03');
    // That day was 23 hours long.
    expect(startOfDay('2018-11-05', SP) - start).toBe(23 * 3600);
  });

  it('does calendar arithmetic across months, years and leap days', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(weekdayOf('2026-11-22')).toBe(0); // a Sunday
    expect(() => addDays('21/11/2026', 1)).toThrow(RangeError);
  });

  it('knows real zones from made-up ones', () => {
    expect(isTimeZone(SP)).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('dates', () => {
  const now = 1_700_000_000;
  it('relative within 3 days, absolute beyond, both directions', () => {
    expect(dateDisplay(now - 3 * DAY, now)).toBe('relative');
    expect(dateDisplay(now - 3 * DAY - 1, now)).toBe('absolute');
    expect(dateDisplay(now + 2 * DAY, now)).toBe('relative');
    expect(dateDisplay(now + 4 * DAY, now)).toBe('absolute');
  });
  it('formats relative times in the locale', () => {
    expect(relativeTime(now - 2 * 3600, now, 'en')).toBe('2 hours ago');
    expect(relativeTime(now + DAY, now, 'en')).toBe('tomorrow');
    expect(relativeTime(now - 2 * 3600, now, 'pt-BR')).toBe('há 2 horas');
    expect(relativeTime(now + 3 * DAY, now, 'pt-BR')).toBe('em 3 dias');
  });
  it('words a date seven days away the same whether it is a little under or over a week', () => {
    // Once "in 7 days" (6.6 days) on one line and "next week" (7.2 days) on the next for one date.
    for (const d of [6.6, 6.9, 7, 7.2, 7.4]) expect(relativeTime(now + d * DAY, now, 'en')).toBe('in 7 days');
    for (const d of [6.6, 7.2]) expect(relativeTime(now + d * DAY, now, 'pt-BR')).toBe('em 7 dias');
    expect(relativeTime(now - 7.3 * DAY, now, 'en')).toBe('7 days ago');
    // Weeks, months and years are numeric, never "next week" / "next month".
    expect(relativeTime(now + 14 * DAY, now, 'en')).toBe('in 2 weeks');
    expect(relativeTime(now + 31 * DAY, now, 'en')).toBe('in 1 month');
    expect(relativeTime(now + 400 * DAY, now, 'en')).toBe('in 1 year');
    // The unit follows the rounded value: 59.6 minutes is an hour, 23.6 hours a day.
    expect(relativeTime(now + 3576, now, 'en')).toBe('in 1 hour');
    expect(relativeTime(now + 23.6 * 3600, now, 'en')).toBe('tomorrow');
    expect(relativeTime(now, now, 'en')).toBe('now');
  });
  it('formats older dates as dates in the site time zone', () => {
    const at = Date.UTC(2023, 0, 1, 1, 0, 0) / 1000; // 1 Jan 01:00 UTC is still 31 Dec in São Paulo
    expect(chapterDate(at, now, 'en', 'UTC')).toBe('Jan 1, 2023');
    expect(chapterDate(at, now, 'pt-BR', 'America/Sao_Paulo')).toBe('31 de dez. de 2022');
  });
  it('memoised dates match Intl exactly around midnight and daylight-saving switches', () => {
    const zones = ['UTC', 'America/Sao_Paulo', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham'];
    // Every quarter hour across the 2018 Brazilian DST switches and the 2024 US/EU ones, plus random instants.
    const instants: number[] = [];
    for (const [y, m, d] of [[2018, 10, 3], [2019, 1, 16], [2024, 2, 9], [2024, 2, 30], [2024, 9, 26], [2024, 10, 2], [2024, 3, 6]] as const) {
      const base = Date.UTC(y, m, d) / 1000;
      for (let s = 0; s < 3 * DAY; s += 900) instants.push(base + s, base + s + 899);
    }
    let seed = 7;
    for (let i = 0; i < 2000; i++) instants.push((seed = (seed * 48271) % 2147483647) % 2_000_000_000);
    for (const timeZone of zones) {
      for (const locale of ['en', 'pt-BR'] as const) {
        const direct = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone });
        for (const at of instants) expect(absoluteDate(at, locale, timeZone), `${timeZone} ${at}`).toBe(direct.format(new Date(at * 1000)));
      }
    }
  });
});

describe('labels', () => {
  it('formats day, month and clock labels for each locale', () => {
    expect(dayLabels('2026-11-21', 'en').weekday).toBe('Sat');
    expect(dayLabels('2026-11-21', 'en').date).toBe('Nov 21');
    expect(dayLabels('2026-11-21', 'pt-BR').weekday).toMatch(/^sáb/);
    expect(dayLabels('2026-11-21', 'pt-BR').date).toMatch(/^21 de nov/);
    expect(monthLabel({ year: 2026, month: 11 }, 'en')).toBe('November 2026');
    expect(monthLabel({ year: 2026, month: 11 }, 'pt-BR')).toBe('Novembro de 2026');
    expect(zoneLabel(SP, 'pt-BR')).toMatch(/Brasília/);
    expect(zoneLabel('Nowhere/Town', 'en')).toBe('Nowhere/Town');
    expect(zoneLabel('UTC', 'pt-BR')).toBe('UTC');
    expect(zoneLabel('Etc/UTC', 'en')).toBe('UTC');
    expect(clockLabel(utc('2026-11-21T18:00:00Z'), 'pt-BR', SP)).toBe('15:00');
  });
});

describe('dayNumber', () => {
  it('counts days from 1970-01-01, one a calendar day', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('1970-01-02')).toBe(1);
    expect(dayNumber('1969-12-31')).toBe(-1);
    expect(dayNumber('2027-01-15')).toBe(Date.UTC(2027, 0, 15) / 86_400_000);
    expect(dayNumber(addDays('2026-03-08', 1)) - dayNumber('2026-03-08')).toBe(1);
  });

  it('agrees with the local day of an instant in a zone', () => {
    // 2027-01-15 02:00 UTC is still the 14th in São Paulo (UTC-3).
    const t = utc('2027-01-15T02:00:00Z');
    expect(dayNumber(dayKey(t, 'UTC')) - dayNumber(dayKey(t, SP))).toBe(1);
  });
});

describe('longDateTimeLabel', () => {
  it('gives the date and time in full, in the zone', () => {
    const t = utc('2026-11-21T18:00:00Z');
    expect(longDateTimeLabel(t, 'en', 'UTC')).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(t * 1000)));
    expect(longDateTimeLabel(t, 'pt-BR', SP)).toMatch(/^21 de novembro de 2026.*15:00$/);
  });
});

describe('datetime-local values in a zone (the studio\'s release and sale times)', () => {
  it('reads a wall time in the zone and writes it back the same', () => {
    const at = Date.UTC(2026, 10, 27, 21, 30) / 1000;
    expect(fromLocalInput('2026-11-27T18:30', 'America/Sao_Paulo')).toBe(at);
    expect(localInputValue(at, 'America/Sao_Paulo')).toBe('2026-11-27T18:30');
    expect(fromLocalInput('2026-11-27T21:30', 'UTC')).toBe(at);
    expect(fromLocalInput('2026-11-27T16:30:00', 'America/New_York')).toBe(at);
    expect(fromLocalInput('2026-11-28T06:30', 'Asia/Tokyo')).toBe(at);
  });

  it('takes a skipped wall time with the offset before the change, and refuses what is not a date and time', () => {
    // New York skipped 02:00-03:00 on 2026-03-08: 02:30 is read as 03:30 EDT (07:30 UTC).
    expect(fromLocalInput('2026-03-08T02:30', 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 7, 30) / 1000);
    expect(fromLocalInput('2026-03-08T03:30', 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 7, 30) / 1000);
    for (const bad of ['', '2026-11-27', '2026-11-27 18:30', '2026-02-30T10:00', '2026-13-01T10:00', '2026-11-27T24:00', 'x2026-11-27T18:30', '2026-11-27T18:30Z']) {
      expect(fromLocalInput(bad, 'UTC'), bad).toBeNull();
    }
  });
});
