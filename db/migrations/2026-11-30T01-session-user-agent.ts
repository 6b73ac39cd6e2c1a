import type { Kysely } from 'kysely';

// Frozen once landed. The browser each session began in (issue 28, docs/staff.md "Support desk:
// readers"): the desk lists a reader's live sessions with a short summary of it ("Firefox ·
// Android"), so support can tell a reader which devices are signed in. Null for sessions begun
// before this column, and for clients that send none. At most 300 characters are kept.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
}
