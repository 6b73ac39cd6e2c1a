/**
 * What a simulation runs on: a fresh database of one dialect (an in-memory SQLite, or a new
 * PostgreSQL database dropped afterwards), a small catalogue shaped by the demo seed's builder,
 * the shop and plans, a few readers of each site, and a handle whose statements can be made to
 * fail on purpose (the injected crashes).
 */
import crypto from 'node:crypto';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { migrateToLatest } from '@db/migrate';
import { SERIES } from '@db/seed/catalog';
import { buildDemoSeries, IdBook, SlugBook } from '@db/seed/build';
import { seedShop } from '@db/seed/shop';
import { createUser } from '~/features/accounts/index.server';
import { createDb, type DB, type Dialect } from '~/server/db';
import { SITES, type Site } from '~/lib/site';

export const DAY = 86_400;
export const HOUR = 3_600;

/** The PostgreSQL server simulations may create databases on (the tests' own). */
const PG_ADMIN_URL = process.env.INKPASS_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function pgAdmin(text: string): Promise<void> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  try {
    await client.connect();
  } catch (e) {
    throw new Error(`PostgreSQL is not reachable at ${PG_ADMIN_URL} (${(e as Error).message}): start it, or run --dialect sqlite`);
  }
  try {
    await client.query(text);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Thrown by a statement the fault plan chose: the "process" stops there. */
export class InjectedCrash extends Error {
  constructor(where: string) {
    super(`injected crash ${where}`);
    this.name = 'InjectedCrash';
  }
}

/**
 * Makes the Nth statement from now fail after it ran: inside a transaction the transaction rolls
 * back (whatever ran in it is undone); outside one, what the statement wrote stays and the caller
 * never learns it (a process stopped between two steps). Fires once per arming.
 */
export class FaultPlan implements KyselyPlugin {
  private readonly own = { countdown: 0 };
  /**
   * Whose countdown a statement counts against: the operation it runs for (operations running at
   * once each have their own, so which one crashes does not depend on how they interleave).
   */
  scope: () => { countdown: number } | undefined = () => undefined;
  fired = 0;

  private get current(): { countdown: number } {
    return this.scope() ?? this.own;
  }

  arm(nth: number): void {
    this.current.countdown = nth;
  }

  disarm(): void {
    this.current.countdown = 0;
  }

  /** The BEGIN statements SQLite's write transactions open with (raw SQL), seen when compiled. */
  private begins = new WeakSet<object>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node as { kind: string; sqlFragments?: readonly string[] };
    if (node.kind === 'RawNode' && /^\s*begin\b/i.test(node.sqlFragments?.join('') ?? '')) this.begins.add(args.queryId);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    // Not after a BEGIN: a BEGIN either opens its transaction or fails, and a failure after the
    // transaction opened but before the code that rolls it back is an artefact, not a crash.
    if (this.begins.has(args.queryId)) return args.result;
    const c = this.current;
    if (c.countdown > 0 && --c.countdown === 0) {
      this.fired++;
      throw new InjectedCrash('after a statement');
    }
    return args.result;
  }
}

export interface World {
  dialect: Dialect;
  /** The application's handle, its statements subject to the fault plan. */
  db: DB;
  /** The same database without faults: the sandbox providers' side, the checks, the scheduler's reads. */
  raw: DB;
  faults: FaultPlan;
  close(): Promise<void>;
}

const pgUrl = (name: string) => {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * PostgreSQL databases are copied from one migrated template per process: `create database …
 * template` copies files, where migrating each run's database anew cost seconds a seed.
 */
let template: Promise<string> | undefined;

function pgTemplate(): Promise<string> {
  template ??= (async () => {
    const name = `inkpass_sim_tpl_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    await pgAdmin(`create database ${name}`);
    const { db } = await createDb(pgUrl(name));
    try {
      await migrateToLatest(db);
    } finally {
      // A template is copied only while nobody is connected to it.
      await db.destroy();
    }
    return name;
  })();
  return template;
}

/** Drops this process's PostgreSQL template, if it made one (at the end of a batch of runs). */
export async function dropTemplates(): Promise<void> {
  const t = template;
  template = undefined;
  if (t) await pgAdmin(`drop database if exists ${await t.catch(() => 'inkpass_sim_none')} with (force)`);
}

/** A fresh, migrated database of this dialect. */
export async function openWorld(dialect: Dialect): Promise<World> {
  let raw: DB;
  let drop = async () => {};
  if (dialect === 'sqlite') {
    raw = (await createDb(':memory:')).db;
    try {
      await migrateToLatest(raw);
    } catch (e) {
      await raw.destroy().catch(() => {});
      throw e;
    }
  } else {
    const name = `inkpass_sim_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    await pgAdmin(`create database ${name} template ${await pgTemplate()}`);
    raw = (await createDb(pgUrl(name))).db;
    drop = () => pgAdmin(`drop database if exists ${name} with (force)`);
  }
  const faults = new FaultPlan();
  const db = raw.withPlugin(faults);
  return {
    dialect, db, raw, faults,
    close: async () => {
      await raw.destroy().catch(() => {});
      await drop();
    },
  };
}

// ---------------------------------------------------------------- the catalogue

export interface ChapterDef {
  number: number;
  price: number;
  /** Seconds from the run's start (negative: before it). */
  released: number;
  buy: boolean;
  pass: boolean;
  ads: boolean;
  rent: boolean;
  sub: boolean;
}

interface SeriesDef {
  pass: { ttl: number; recharge: number } | null;
  ads: { total: number; ttl: number } | null;
  backlogAgain: boolean;
  chapters: ChapterDef[];
}

const ALL = { buy: true, pass: true, ads: true, rent: true, sub: true };

/** Three series whose chapters open by every way in, some closed to one or another. */
const CATALOGUE: SeriesDef[] = [
  {
    pass: { ttl: 3 * DAY, recharge: 23 * HOUR }, ads: { total: 2, ttl: DAY }, backlogAgain: false,
    chapters: [
      { number: 1, price: 0, released: -30 * DAY, ...ALL },
      { number: 2, price: 3, released: -20 * DAY, ...ALL },
      { number: 3, price: 12, released: -15 * DAY, ...ALL, sub: false },
      { number: 4, price: 25, released: -10 * DAY, ...ALL, pass: false, rent: false },
      { number: 5, price: 9, released: -6 * DAY, ...ALL, buy: false, sub: false },
      { number: 6, price: 5, released: -DAY, ...ALL },
      { number: 7, price: 4, released: 5 * DAY, ...ALL },
      { number: 8, price: 6, released: 40 * DAY, ...ALL },
    ],
  },
  {
    pass: { ttl: DAY, recharge: 2 * DAY }, ads: null, backlogAgain: true,
    chapters: [
      { number: 1, price: 1, released: -40 * DAY, ...ALL },
      { number: 2, price: 30, released: -30 * DAY, ...ALL },
      { number: 3, price: 11, released: -20 * DAY, ...ALL, sub: false },
      { number: 4, price: 3, released: -2 * DAY, ...ALL },
    ],
  },
  {
    pass: null, ads: { total: 1, ttl: 6 * HOUR }, backlogAgain: false,
    chapters: [
      { number: 1, price: 2, released: -9 * DAY, ...ALL },
      { number: 2, price: 4, released: -7 * DAY, ...ALL },
      { number: 3, price: 2, released: -3 * DAY, ...ALL },
      { number: 4, price: 7, released: 20 * DAY, ...ALL },
    ],
  },
];

export interface Catalogue {
  seriesIds: number[];
  chapters: { e4pid: string; price: number }[];
}

/** The catalogue, ids and e4pids unique to this run (the in-process caches key on e4pid). */
export async function seedCatalogue(db: DB, start: number, tag: string): Promise<Catalogue> {
  const ctx = { now: start, ids: new IdBook(), slugs: new SlugBook() };
  const templates = SERIES.filter((s) => !s.adult && !s.state && !s.allFree).slice(0, CATALOGUE.length).map((def) => buildDemoSeries(def, ctx).series.row);
  const out: Catalogue = { seriesIds: [], chapters: [] };
  for (const [i, def] of CATALOGUE.entries()) {
    const fa = {
      daily_pass_enabled: def.pass !== null, daily_pass_ttl: def.pass?.ttl ?? 0, daily_pass_recharge: def.pass?.recharge ?? 0,
      ads_enabled: def.ads !== null, total_ads: def.ads?.total ?? 0, ads_ttl: def.ads?.ttl ?? 0,
    };
    const released = def.chapters.filter((ch) => ch.released <= 0);
    const { id } = await db.insertInto('series').values({
      ...templates[i]!, e4pid: `SER-${tag}s${i}`, slug: `simulation-${tag}-${i}`, state: 'ACTIVE', adult: 0, all_free: 0, geoblocks: '[]',
      availability_strategy: JSON.stringify({ backlog_becomes_backlog: def.backlogAgain }), free_availability: JSON.stringify(fa),
      created_at: start - 60 * DAY, modified_at: start, last_updated: start + Math.max(...released.map((ch) => ch.released)),
      largest_chapter: Math.max(...released.map((ch) => ch.number)), chapter_count: released.length,
    }).returning('id').executeTakeFirstOrThrow();
    const seriesId = Number(id);
    out.seriesIds.push(seriesId);
    for (const siteId of [1, 3]) {
      await db.insertInto('series_languages').values({ series_id: seriesId, language: siteId === 1 ? 'en' : 'pt-br', site_id: siteId, chapter_count: released.length, last_updated: start }).execute();
    }
    for (const ch of def.chapters) {
      const e4pid = `EPI-${tag}s${i}c${ch.number}`;
      await db.insertInto('chapters').values({
        e4pid, series_id: seriesId, language: 'en', number: ch.number, title: null, subtitle: null,
        released_at: start + ch.released, sale_at: start + ch.released, expired_at: null, original_price: ch.price, thumbnail: null,
        purchase_enabled: ch.buy ? 1 : 0, purchase_many_enabled: 0, daily_pass_enabled: ch.pass ? 1 : 0, ads_enabled: ch.ads ? 1 : 0,
        rental_enabled: ch.rent ? 1 : 0, subscription_enabled: ch.sub ? 1 : 0, page_count: 1, created_at: start - 60 * DAY,
      }).execute();
      out.chapters.push({ e4pid, price: ch.price });
    }
  }
  return out;
}

export interface Reader {
  id: number;
  site: Site;
}

/** The shop, the plans, and `perSite` readers on each site. */
export async function seedWorld(db: DB, start: number, tag: string, perSite: number): Promise<{ catalogue: Catalogue; readers: Reader[] }> {
  const catalogue = await seedCatalogue(db, start, tag);
  await seedShop(db, { coupons: true });
  const readers: Reader[] = [];
  for (const site of [SITES[1], SITES[3]]) {
    for (let i = 0; i < perSite; i++) {
      const user = await createUser(db, { email: `sim-${tag}-${site.id}-${i}@inkpass.test`, displayName: `Reader ${site.id}.${i}`, password: 'correct horse battery' });
      readers.push({ id: user!.id, site });
    }
  }
  return { catalogue, readers };
}
