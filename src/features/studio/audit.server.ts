/**
 * The audit trail page's model (/studio/audit/, docs/staff.md): the GET form's filters, read
 * strictly (a malformed field is a message, never a guess and never a 500), and one page of
 * records newest first.
 */
import type { DB } from '~/server/db';
import type { MessageKey } from '~/lib/i18n';
import { addDays, longDateTimeLabel, parseKey, startOfDay } from '~/lib/dates';
import { findUserByEmail } from '~/features/accounts/index.server';
import { listAuditRecords, type AuditFilter } from './repository.server';

export const AUDIT_PAGE_SIZE = 50;
const MAX_PAGE = 100_000;
/** The words the person field takes for the command line (records with no actor). */
const COMMAND_LINE = new Set(['cli', 'command line', 'linha de comando']);

export interface AuditQuery {
  person: string;
  table: string;
  id: string;
  from: string;
  to: string;
}

export interface AuditRow {
  id: number;
  at: number;
  when: string;
  who: string | null;
  actorId: number | null;
  capability: string | null;
  action: string;
  object: string;
  before: string;
  after: string;
  ip: string | null;
  userAgent: string | null;
}

export type AuditPageModel =
  | { ok: true; query: AuditQuery; page: number; rows: AuditRow[]; hasNext: boolean }
  | { ok: false; query: AuditQuery; error: MessageKey };

const field = (params: URLSearchParams, name: string) => (params.get(name) ?? '').trim();

/** A YYYY-MM-DD that is a real day. */
function validDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const { year, month, day } = parseKey(value);
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day && year >= 2000 && year <= 9999;
}

/** A JSON summary as "key: value" text; anything unreadable shown as stored (the page escapes it). */
export function summarize(json: string | null): string {
  if (json === null) return '';
  let text: string;
  try {
    const value: unknown = JSON.parse(json);
    text = value && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : typeof v === 'string' ? v : JSON.stringify(v)}`).join('; ')
      : typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    text = json;
  }
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** Reads the filters (dates are days in the site's zone: `from` inclusive, `to` inclusive). */
export async function auditPage(db: DB, params: URLSearchParams, locale: string, timeZone: string): Promise<AuditPageModel> {
  const query: AuditQuery = { person: field(params, 'person'), table: field(params, 'table'), id: field(params, 'id'), from: field(params, 'from'), to: field(params, 'to') };
  const fail = (error: MessageKey): AuditPageModel => ({ ok: false, query, error });
  const rawPage = params.get('page');
  if (rawPage !== null && rawPage !== '' && !/^\d{1,9}$/.test(rawPage)) return fail('studio.audit.error.page');
  const page = rawPage ? Number(rawPage) : 1;
  if (page < 1 || page > MAX_PAGE) return fail('studio.audit.error.page');

  const filter: AuditFilter = {};
  if (query.person) {
    if (query.person.length > 254) return fail('studio.audit.error.person');
    if (COMMAND_LINE.has(query.person.toLowerCase())) filter.actorId = null;
    else if (/^\d{1,12}$/.test(query.person)) filter.actorId = Number(query.person);
    else if (query.person.includes('@')) {
      const user = await findUserByEmail(db, query.person);
      if (!user) return fail('studio.audit.error.unknownPerson');
      filter.actorId = Number(user.id);
    } else return fail('studio.audit.error.person');
  }
  if (query.table) {
    if (!/^[a-z_]{1,64}$/.test(query.table)) return fail('studio.audit.error.table');
    filter.objectTable = query.table;
  }
  if (query.id) {
    if (query.id.length > 64) return fail('studio.audit.error.id');
    filter.objectId = query.id;
  }
  if (query.from) {
    if (!validDay(query.from)) return fail('studio.audit.error.date');
    filter.from = startOfDay(query.from, timeZone);
  }
  if (query.to) {
    if (!validDay(query.to)) return fail('studio.audit.error.date');
    filter.to = startOfDay(addDays(query.to, 1), timeZone);
  }
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) return fail('studio.audit.error.range');

  const records = await listAuditRecords(db, filter, (page - 1) * AUDIT_PAGE_SIZE, AUDIT_PAGE_SIZE);
  const rows = records.slice(0, AUDIT_PAGE_SIZE).map((r): AuditRow => ({
    id: Number(r.id),
    at: Number(r.at),
    when: longDateTimeLabel(Number(r.at), locale, timeZone),
    who: r.actor_email ?? null,
    actorId: r.actor_id === null ? null : Number(r.actor_id),
    capability: r.capability,
    action: r.action,
    object: `${r.object_table} ${r.object_id}`,
    before: summarize(r.before_json),
    after: summarize(r.after_json),
    ip: r.ip,
    userAgent: r.user_agent && r.user_agent.length > 80 ? `${r.user_agent.slice(0, 79)}…` : r.user_agent,
  }));
  return { ok: true, query, page, rows, hasNext: records.length > AUDIT_PAGE_SIZE };
}
