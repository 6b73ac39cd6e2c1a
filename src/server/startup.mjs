// @ts-check
/**
 * What a server checks before it listens (scripts/serve.mjs) and `npm run doctor` reports: the
 * configuration's refusals (src/server/config.mjs, `startupRefusals`) plus the facts only the
 * database knows. Plain JavaScript, because serve.mjs runs under plain Node and cannot load the
 * app's TypeScript: the one query here goes through the drivers directly, read-only.
 */
import fs from 'node:fs';
import { startupRefusals } from './config.mjs';

/**
 * How many demo accounts (users.is_demo) the database holds; 0 when it has no users table yet
 * (a database that was never migrated has none) or the SQLite file does not exist.
 * @param {string} databaseUrl
 * @returns {Promise<number>}
 */
export async function demoAccountCount(databaseUrl) {
  const query = 'select count(*) as n from users where is_demo = 1';
  // Before the migration that added is_demo, the demo accounts are known by their emails.
  const byEmail = "select count(*) as n from users where email in ('reader@inkpass.test', 'staff@inkpass.test')";
  if (databaseUrl.startsWith('postgres')) {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const exists = await client.query("select to_regclass('users') is not null as t");
      if (!exists.rows[0]?.t) return 0;
      const column = await client.query("select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'users' and column_name = 'is_demo'");
      const r = await client.query(column.rowCount ? query : byEmail);
      return Number(r.rows[0]?.n ?? 0);
    } finally {
      await client.end().catch(() => {});
    }
  }
  if (databaseUrl === ':memory:') return 0;
  const file = databaseUrl.replace(/^file:/, '');
  if (!fs.existsSync(file)) return 0;
  const Sqlite = (await import('better-sqlite3')).default;
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'users'").get();
    if (!table) return 0;
    const columns = /** @type {{ name: string }[]} */ (db.prepare("select name from pragma_table_info('users')").all());
    const row = /** @type {{ n: number }} */ (db.prepare(columns.some((c) => c.name === 'is_demo') ? query : byEmail).get());
    return Number(row.n);
  } finally {
    db.close();
  }
}

/**
 * Every reason this configuration and database must not serve, one line each naming what to
 * change; empty when the server may start.
 * @param {import('./config.mjs').Config} config
 * @returns {Promise<string[]>}
 */
export async function refusalsAtStart(config) {
  const out = startupRefusals(config);
  if (config.mode === 'production') {
    const demo = await demoAccountCount(config.databaseUrl);
    if (demo > 0) {
      out.push(`the database holds ${demo} demo account(s) (their passwords are in the README): it was prepared as a demo; start production on a fresh DATABASE_URL, which \`npm start\` prepares without demo accounts`);
    }
  }
  return out;
}

/**
 * The one line a server logs about its mode when it starts.
 * @param {import('./config.mjs').Config} config
 */
export function modeLine(config) {
  const check = config.appCheck;
  const bot = !check.enforced ? 'bot check off (APP_CHECK=on turns it on)'
    : `bot check by ${check.provider === 'turnstile' ? 'Cloudflare Turnstile' : `proof of work (difficulty ${check.difficulty})`}${check.debug ? ', debug: no token solved ahead' : ''}`;
  if (config.mode === 'demo') {
    return `[inkpass] DEMO mode${config.modeSet ? '' : ' (INKPASS_MODE is not set; allowed on a loopback address only)'}: sandbox payments (${config.payments.card} card, ${config.payments.pix} Pix), demo accounts, no real money moves, ${bot}, ${config.mail.smtpUrl ? 'email by SMTP' : 'email kept at /dev/outbox/'}. Set INKPASS_MODE=production for a real shop (npm run doctor).`;
  }
  const offered = [config.payments.card !== 'none' ? `cards by ${config.payments.card}` : null, config.payments.pix !== 'none' ? `Pix by ${config.payments.pix}` : null].filter(Boolean);
  const mail = config.mail.smtpUrl ? 'email by SMTP' : 'no SMTP_URL: email waits in the outbox, unsent';
  return `[inkpass] production mode: ${offered.length ? offered.join(', ') : 'no payment method configured (readers cannot buy keys)'}; ${bot}; ${mail}.`;
}
