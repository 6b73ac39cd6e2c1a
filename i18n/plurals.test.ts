/**
 * Counts in every message of both catalogues (issue 24: "Faltam 1 chave", "Você tem 0 chave e 0
 * chave Xtra", "1 KEY"/"3 KEY"). Each message is parsed; every argument is either a count or on
 * the reviewed lists below (text, or a number that counts nothing: a page, a year, a status).
 * Counts must be ICU plurals, and each message is formatted with every count at 0, 1, 2 and 5 in
 * its locale to check that the singular is chosen at 1 and only at 1 (in CLDR's Portuguese, the
 * `one` category covers 0, but Brazilians write "0 chaves": an explicit `=0` case is needed), and
 * that no number in the text stands next to a noun or verb of the wrong number ("1 keys", "2
 * key", "0 chave", "Faltam 1"). Issue 26 added: every case shows its count (only an explicit `=0`
 * may say it in words: "Nenhuma série"), and numbers written into a message's own text agree too.
 * Messages are found by parsing, so a new message with a count is covered without listing it.
 */
import { describe, expect, it } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import en from './en.json';
import pt from './pt-BR.json';

type Locale = 'en' | 'pt-BR';
const CATALOGUES: [Locale, Record<string, string>][] = [['en', en], ['pt-BR', pt]];
const VALUES = [0, 1, 2, 5] as const;

/** The element kinds of intl-messageformat's AST (its parser's TYPE enum). */
const TYPE = { argument: 1, number: 2, select: 5, plural: 6 } as const;
interface Element { type: number; value?: unknown; options?: Record<string, { value: Element[] }>; pluralType?: 'cardinal' | 'ordinal' }

/** Arguments that always hold text (a name, a formatted date, price or amount), never a bare count. */
const TEXT = new Set(['name', 'names', 'chapter', 'series', 'genre', 'when', 'date', 'time', 'countries', 'q', 'order', 'direction', 'zone', 'product', 'site', 'reason', 'discount', 'method', 'plan', 'email', 'title', 'link', 'data', 'capability', 'amount', 'id', 'message', 'param', 'access']);

/**
 * Reviewed: numbers shown bare because they count nothing in the sentence, or stand alone, with
 * why. Keyed by message (`locale:key` when only one language is concerned).
 */
const NOT_COUNTED: Record<string, { args: string[]; why: string }> = {
  'footer.rights': { args: ['year'], why: 'a year' },
  'browse.top.section': { args: ['format'], why: 'a format name (Manga, Webtoon, Comic)' },
  'browse.top.seeAll': { args: ['format'], why: 'a format name (Manga, Webtoon, Comic)' },
  'studio.prices.editChapter': { args: ['number'], why: 'a chapter number (a name, decimals allowed)' },
  'studio.prices.chapterTitle': { args: ['number'], why: 'a chapter number (a name, decimals allowed)' },
  'studio.prices.error.price': { args: ['max'], why: 'the upper end of a range the field accepts' },
  'desk.grant.error.amount': { args: ['max'], why: 'the upper end of a range the field accepts' },
  'studio.shop.hint.currency': { args: ['currency'], why: 'a currency code' },
  'studio.shop.hint.price': { args: ['currency'], why: 'a currency code' },
  'studio.shop.hint.amount_off': { args: ['currency'], why: 'a currency code' },
  'studio.shop.error.currency': { args: ['currency'], why: 'a currency code' },
  'studio.shop.error.price': { args: ['min', 'max'], why: 'formatted amounts of money, the ends of the range the field accepts' },
  'studio.shop.error.amount': { args: ['min', 'max'], why: 'formatted amounts of money, the ends of the range the field accepts' },
  'studio.shop.error.keys': { args: ['max'], why: 'the upper end of a range the field accepts' },
  'studio.shop.error.xtraKeys': { args: ['max'], why: 'the upper end of a range the field accepts' },
  'studio.shop.error.position': { args: ['max'], why: 'the upper end of a range the field accepts' },
  'studio.shop.error.maxUses': { args: ['max'], why: 'the upper end of a range the field accepts' },
  'studio.shop.error.perReader': { args: ['max'], why: 'the upper end of a range the field accepts' },
  'studio.shop.error.slots': { args: ['max'], why: 'the upper end of a range the field accepts' },
  'studio.shop.error.rentals': { args: ['max'], why: 'the upper end of a range the field accepts' },
  'studio.shop.error.rentHours': { args: ['max'], why: 'the upper end of a range the field accepts' },
  'studio.shop.error.trialDays': { args: ['max'], why: 'the upper end of a range the field accepts' },
  'studio.shop.error.benefits': { args: ['max', 'length'], why: 'limits of the field: lines and characters' },
  'studio.campaigns.window': { args: ['starts', 'ends'], why: 'formatted dates and times' },
  'studio.campaigns.off': { args: ['percent'], why: 'a formatted percentage' },
  'history.progress': { args: ['percent'], why: 'a percentage' },
  'calendar.campaign.discount': { args: ['percent'], why: 'a formatted percentage' },
  'carousel.slideLabel': { args: ['n', 'total'], why: 'a position: "2 of 5"' },
  'calendar.slide': { args: ['n', 'total'], why: 'a position: "2 of 5"' },
  'carousel.goTo': { args: ['n'], why: 'a slide number' },
  'chapter.name.chapter': { args: ['num'], why: 'a chapter number' },
  'chapter.name.episode': { args: ['num'], why: 'an episode number' },
  'chapter.ordinal.one': { args: ['n'], why: 'an ordinal, chosen by ordinal rules' },
  'chapter.ordinal.two': { args: ['n'], why: 'an ordinal, chosen by ordinal rules' },
  'chapter.ordinal.few': { args: ['n'], why: 'an ordinal, chosen by ordinal rules' },
  'chapter.ordinal.other': { args: ['n'], why: 'an ordinal, chosen by ordinal rules' },
  'calendar.campaign.range': { args: ['from', 'to'], why: 'chapter numbers' },
  'calendar.campaign.from': { args: ['from'], why: 'a chapter number' },
  'pagination.page': { args: ['page'], why: 'a page number' },
  'studio.upload.error.empty': { args: ['page'], why: 'a page number' },
  'studio.upload.error.notImage': { args: ['page'], why: 'a page number' },
  'studio.upload.error.corrupt': { args: ['page'], why: 'a page number' },
  'studio.upload.error.tooWide': { args: ['page'], why: 'a page number' },
  'studio.upload.error.replaceOne': { args: ['page'], why: 'a page number' },
  'studio.chapters.draftRow': { args: ['number', 'language'], why: 'a chapter number and a language name' },
  'studio.draft.title': { args: ['number'], why: 'a chapter number' },
  'studio.draft.summary': { args: ['size', 'language'], why: 'a formatted size ("3.2 MB") and a language name' },
  'studio.draft.pageLabel': { args: ['page', 'width', 'height'], why: 'a page number and its dimensions' },
  'studio.draft.replaceLabel': { args: ['page'], why: 'a page number' },
  'studio.publish.zoneHint': { args: ['utc'], why: 'a formatted time in UTC' },
  'studio.publish.done': { args: ['utc'], why: 'a formatted time in UTC' },
  'studio.upload.error.fileTooLarge': { args: ['mb'], why: 'a size limit: "20 MB"' },
  'studio.upload.error.chapterTooLarge': { args: ['mb'], why: 'a size limit: "300 MB"' },
  'pagination.current': { args: ['page', 'pages'], why: 'a position: "page 2 of 5"' },
  'reader.pageCounter': { args: ['page', 'total'], why: 'a position: "page 2 of 5"' },
  'reader.pageAlt': { args: ['page'], why: 'a page number' },
  'listing.error.status': { args: ['status'], why: 'an HTTP status' },
  'unlock.errorStatus': { args: ['status'], why: 'an HTTP status' },
  'checkout.error.status': { args: ['status'], why: 'an HTTP status' },
  'chapter.price.was': { args: ['price'], why: 'an already formatted price label ("3 KEYS")' },
  'checkout.pix.title': { args: ['total'], why: 'an amount of money' },
  'checkout.submit.pay': { args: ['total'], why: 'an amount of money' },
  'purchase.buyLabel': { args: ['price'], why: 'an amount of money' },
  'purchase.perKey': { args: ['price'], why: 'an amount of money (what one key costs)' },
  'subscribe.checkout.price': { args: ['price'], why: 'an amount of money' },
  'subscribe.checkout.trialThen': { args: ['price'], why: 'an amount of money' },
  'subscribe.checkout.submit': { args: ['price'], why: 'an amount of money' },
  'subscriptions.rentals.count': { args: ['used', 'capacity'], why: 'a figure under its heading ("Rentals this month"): "2 of 5"' },
  'home.latestNews': { args: ['count'], why: 'a total standing alone in parentheses; the browser fills it in' },
  'en:subscriptions.slots.count': { args: ['used', 'left'], why: 'English participles and "left" do not inflect: "1 of 3 slots used, 2 left"' },
  'en:unlock.rent': { args: ['n'], why: '"left" does not inflect: "(1 left this month)"' },
  'en:plans.trial': { args: ['days'], why: 'a compound adjective takes no plural: "7-day free trial"' },
  'staff.link.requestFailed': { args: ['status'], why: 'an HTTP status code (the spec\'s message)' },
  'en:subscribe.trial.started': { args: ['days'], why: 'a compound adjective takes no plural: "your 7-day free trial"' },
  'studio.capabilities': { args: ['list'], why: 'a list of capability names, text' },
  'studio.audit.count': { args: ['page'], why: 'a page number, which counts nothing: "on page 2"' },
  'studio.audit.goneAccount': { args: ['id'], why: 'an account number, an identifier' },
  'studio.staff.done.granted': { args: ['id'], why: 'an account number, an identifier' },
  'studio.staff.done.revoked': { args: ['id'], why: 'an account number, an identifier' },
  'studio.staff.done.unchanged': { args: ['id'], why: 'an account number, an identifier' },
  'studio.series.translation': { args: ['language'], why: 'a language name, text' },
  'studio.images.done': { args: ['kind'], why: 'an image kind name, text' },
  'studio.images.current': { args: ['kind'], why: 'an image kind name, text' },
  'moderation.ban.until': { args: ['until'], why: 'a date and time, text' },
  'studio.moderation.where': { args: ['number'], why: 'a chapter number, an identifier: "Chapter 12 of …"' },
  'studio.moderation.bansEnds': { args: ['ends'], why: 'a date and time (or "for good"), text' },
  'studio.moderation.wordRemove': { args: ['word'], why: 'a blocked word, text' },
  'account.sessions.signOutOneOf': { args: ['device'], why: 'a browser and system name ("Firefox · Linux"), text' },
};

/**
 * Messages split into one key per plural form, for browser code that fills `{count}` itself
 * (the search overlay, the subscribe button); that code picks `.one` at 1 only.
 */
const SPLIT = /^(search\.results|subscribe\.slots)\.(one|other)$/;

/** Singular and plural of the nouns and verbs that meet a count, both languages, lower case. */
const FORMS: [string, string][] = [
  ['key', 'keys'], ['chapter', 'chapters'], ['episode', 'episodes'], ['minute', 'minutes'], ['second', 'seconds'], ['day', 'days'],
  ['hour', 'hours'], ['slot', 'slots'], ['rental', 'rentals'], ['page', 'pages'], ['suggestion', 'suggestions'], ['release', 'releases'],
  ['result', 'results'], ['month', 'months'],
  ['chave', 'chaves'], ['capítulo', 'capítulos'], ['episódio', 'episódios'], ['minuto', 'minutos'], ['segundo', 'segundos'], ['dia', 'dias'],
  ['hora', 'horas'], ['vaga', 'vagas'], ['aluguel', 'aluguéis'], ['página', 'páginas'], ['sugestão', 'sugestões'], ['lançamento', 'lançamentos'],
  ['série', 'séries'], ['resultado', 'resultados'], ['mês', 'meses'], ['restante', 'restantes'], ['livre', 'livres'], ['usada', 'usadas'],
  ['ocupada', 'ocupadas'],
];
const SINGULAR = new Set(FORMS.map(([one]) => one));
const PLURAL = new Set(FORMS.map(([, other]) => other));
/** Verbs that come before the count they agree with ("Falta 1 chave", "Faltam 2 chaves"). */
const VERB_BEFORE: [string, string][] = [['falta', 'faltam']];
/** Words that may sit between a count and its noun ("2 more keys", "1 Xtra key", "3 novas chaves"). */
const BETWEEN = new Set(['more', 'xtra', 'new', 'free', 'nova', 'novas', 'novo', 'novos']);

interface Args { plurals: { name: string; options: string[] }[]; simple: string[]; selects: string[] }

function argsOf(elements: Element[], out: Args = { plurals: [], simple: [], selects: [] }): Args {
  for (const el of elements) {
    if (el.type === TYPE.argument || el.type === TYPE.number) out.simple.push(String(el.value));
    if (el.type === TYPE.plural && el.pluralType !== 'ordinal') out.plurals.push({ name: String(el.value), options: Object.keys(el.options ?? {}) });
    if (el.type === TYPE.select) out.selects.push(String(el.value));
    for (const option of Object.values(el.options ?? {})) argsOf(option.value, out);
  }
  return out;
}

const every = CATALOGUES.flatMap(([locale, catalogue]) => Object.entries(catalogue).map(([key, source]) => ({ locale, key, source })));
const reviewed = (locale: Locale, key: string, arg: string) =>
  TEXT.has(arg) || !!NOT_COUNTED[key]?.args.includes(arg) || !!NOT_COUNTED[`${locale === 'en' ? 'en' : 'pt'}:${key}`]?.args.includes(arg);

/** The words right after and right before each standalone `n` in `text`, lower case. */
function neighbours(text: string, n: number): { after: string | null; before: string | null }[] {
  const out: { after: string | null; before: string | null }[] = [];
  const number = new RegExp(`(?<![\\p{L}\\p{N}])${n}(?![\\p{L}\\p{N}])`, 'gu');
  for (const m of text.matchAll(number)) {
    const rest = text.slice(m.index + m[0].length);
    // "7-day": a compound adjective, not a count and its noun.
    if (rest.startsWith('-')) continue;
    // The words that follow it separated by spaces only ("2, page" and "2/month" are not "2 pages").
    const words = (/^(?:\s+\p{L}+){1,3}/u.exec(rest)?.[0] ?? '').trim().split(/\s+/).filter(Boolean).map((w) => w.toLowerCase());
    const after = words.find((w) => !BETWEEN.has(w)) ?? null;
    const before = /(\p{L}+)\s+$/u.exec(text.slice(0, m.index))?.[1]?.toLowerCase() ?? null;
    out.push({ after: after && (SINGULAR.has(after) || PLURAL.has(after)) ? after : null, before });
  }
  return out;
}

/** What is wrong with the words around `n` in `text`, if anything. */
function agreementProblems(text: string, n: number): string[] {
  const problems: string[] = [];
  for (const { after, before } of neighbours(text, n)) {
    if (after && n === 1 && PLURAL.has(after)) problems.push(`"${n} ${after}"`);
    if (after && n !== 1 && SINGULAR.has(after)) problems.push(`"${n} ${after}"`);
    for (const [one, other] of VERB_BEFORE) {
      if (before === other && n === 1) problems.push(`"${before} ${n}"`);
      if (before === one && n !== 1) problems.push(`"${before} ${n}"`);
    }
  }
  return problems;
}

/** Plurals without an "other" case, and counts a message does not show (zero in words is fine where =0 says so). */
function countsShown(source: string, locale: Locale): string[] {
  const problems: string[] = [];
  const format = new IntlMessageFormat(source, locale);
  const args = argsOf(format.getAst() as Element[]);
  for (const { name, options } of args.plurals) {
    if (!options.includes('other')) problems.push(`{${name}} has no "other" case`);
    for (const n of VALUES) {
      // Only this count gets n; the others a number that cannot be mistaken for it.
      const values: Record<string, string | number> = {};
      for (const a of [...args.simple, ...args.plurals.map((p) => p.name)]) values[a] = a === name ? n : 7_345;
      for (const a of args.selects) values[a] = 'other';
      const text = String(format.format(values));
      const shown = new RegExp(`(?<![\\p{L}\\p{N}])${n}(?![\\p{L}\\p{N}])`, 'u').test(text);
      // "Nenhuma série", "Sem aluguéis": zero in words, where the message says so with =0.
      if (!shown && !(n === 0 && options.includes('=0'))) problems.push(`{${name}} at ${n} does not show ${n}: "${text}"`);
    }
  }
  return problems;
}

/** Numbers written into a message's own text ("above 9 keys") that meet a noun or verb of the other number. */
function literalCountProblems(source: string, locale: Locale): string[] {
  const format = new IntlMessageFormat(source, locale);
  const args = argsOf(format.getAst() as Element[]);
  const values: Record<string, string | number> = {};
  // Arguments get a number no message writes itself, so what is left is the message's own text.
  for (const a of [...args.simple, ...args.plurals.map((p) => p.name)]) values[a] = 7_345;
  for (const a of args.selects) values[a] = 'other';
  const text = String(format.format(values));
  const literals = new Set([...text.matchAll(/(?<![\p{L}\p{N}.,])\d+(?![\p{L}\p{N}])/gu)].map((m) => Number(m[0])).filter((n) => n !== 7_345));
  return [...literals].flatMap((n) => agreementProblems(text, n));
}

describe('counts in the catalogues', () => {
  it('every argument is a plural count or reviewed (text, or a number that counts nothing)', () => {
    const bare: string[] = [];
    for (const { locale, key, source } of every) {
      if (SPLIT.test(key)) continue;
      for (const arg of argsOf(new IntlMessageFormat(source, locale).getAst() as Element[]).simple) {
        if (!reviewed(locale, key, arg)) bare.push(`${locale} ${key}: {${arg}} is shown bare; make it a plural (or review it here)`);
      }
    }
    expect(bare).toEqual([]);
  });

  it('the reviewed lists name only arguments that exist', () => {
    for (const [ref, { args }] of Object.entries(NOT_COUNTED)) {
      const [scope, key] = ref.includes(':') ? (ref.split(':') as [string, string]) : [null, ref];
      const sources = CATALOGUES.filter(([l]) => scope === null || l.startsWith(scope)).map(([, c]) => c[key]);
      expect(sources.every((s) => typeof s === 'string'), ref).toBe(true);
      for (const arg of args) for (const s of sources) expect(s, `${ref} {${arg}}`).toMatch(new RegExp(`\\{${arg}[},]`));
    }
  });

  it('every plural has a singular case, chosen at 1 and only at 1 (Portuguese 0 takes =0, never "one")', () => {
    const wrong: string[] = [];
    for (const { locale, key, source } of every) {
      const rules = new Intl.PluralRules(locale);
      for (const { name, options } of argsOf(new IntlMessageFormat(source, locale).getAst() as Element[]).plurals) {
        if (!options.includes('one') && !options.includes('=1')) wrong.push(`${locale} ${key}: {${name}} has no singular case`);
        for (const n of VALUES) {
          const chosen = options.includes(`=${n}`) ? `=${n}` : rules.select(n);
          const singular = chosen === 'one' || chosen === '=1';
          if (singular !== (n === 1)) wrong.push(`${locale} ${key}: {${name}} at ${n} takes "${chosen}"`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('every plural has an "other" case, and shows its number in every case but an explicit =0 said in words (issue 26)', () => {
    const wrong: string[] = [];
    for (const { locale, key, source } of every) {
      if (SPLIT.test(key)) continue;
      for (const problem of countsShown(source, locale)) wrong.push(`${locale} ${key}: ${problem}`);
    }
    expect(wrong).toEqual([]);
  });

  it('no number written into a message\'s own text meets a noun or verb of the other number', () => {
    const wrong = every.flatMap(({ locale, key, source }) => literalCountProblems(source, locale).map((p) => `${locale} ${key}: ${p}`));
    expect(wrong).toEqual([]);
  });

  it('formatted with every count at 0, 1, 2 and 5, no number meets a noun or verb of the other number', () => {
    const wrong: string[] = [];
    for (const { locale, key, source } of every) {
      const format = new IntlMessageFormat(source, locale);
      const args = argsOf(format.getAst() as Element[]);
      const split = SPLIT.exec(key);
      for (const n of VALUES) {
        if (split && (split[2] === 'one') !== (n === 1)) continue;
        // Every argument gets the number, text ones too: a bare "{keys} keys" shows up as "1 keys".
        const values: Record<string, string | number> = {};
        for (const a of [...args.simple, ...args.plurals.map((p) => p.name)]) values[a] = n;
        for (const a of args.selects) values[a] = 'other';
        const text = String(format.format(values));
        for (const problem of agreementProblems(text, n)) wrong.push(`${locale} ${key} at ${n}: ${problem} in "${text}"`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the checks catch the defects of issues 24 and 26', () => {
    expect(agreementProblems('Faltam 1 chave.', 1)).toEqual(['"faltam 1"']);
    expect(agreementProblems('Você tem 0 chave e 0 chave Xtra.', 0)).toEqual(['"0 chave"', '"0 chave"']);
    expect(agreementProblems('3 KEY', 3)).toEqual(['"3 key"']);
    expect(agreementProblems('1 keys', 1)).toEqual(['"1 keys"']);
    expect(agreementProblems('You need 2 more key.', 2)).toEqual(['"2 key"']);
    expect(agreementProblems('Falta 1 chave. Faltam 2 chaves.', 1)).toEqual([]);
    expect(agreementProblems('Your 7-day free trial', 7)).toEqual([]);
    expect(countsShown('{n, plural, one {a key} other {# keys}}', 'en')).toEqual(['{n} at 1 does not show 1: "a key"']);
    // A plural without "other" does not even parse (and every message is parsed: catalogues.test.ts).
    expect(() => countsShown('{n, plural, one {# key} few {# keys}}', 'en')).toThrow(/MISSING_OTHER_CLAUSE/);
    expect(countsShown('{n, plural, =0 {Nenhuma série} one {# série} other {# séries}}', 'pt-BR')).toEqual([]);
    expect(literalCountProblems('Capítulos acima de 9 chave devolvem {n, plural, one {# chave} other {# chaves}}.', 'pt-BR')).toEqual(['"9 chave"']);
    expect(literalCountProblems('Chapters priced above 9 keys give Xtra keys back.', 'en')).toEqual([]);
    const rules = new Intl.PluralRules('pt-BR');
    expect(rules.select(0)).toBe('one'); // why Portuguese needs =0
    const ast = new IntlMessageFormat('{n, plural, one {# chave} other {# chaves}}', 'pt-BR').getAst() as Element[];
    expect(argsOf(ast).plurals).toEqual([{ name: 'n', options: ['one', 'other'] }]);
  });
});
