/**
 * Demo accounts (README "Demo accounts"): a reader and a staff member (every capability), created if absent
 * through the same service the sign-up page uses, each with a starting balance granted through
 * the ledger (idempotent: a second run grants nothing more). Marked `is_demo`: a production
 * server refuses to start while one exists, and the seed makes none in production mode.
 */
import type { DB } from '~/server/db';
import { changeCapability, createUser, findUserByEmail } from '~/features/accounts/index.server';
import { grantKeys } from '~/features/wallet/index.server';
import { CAPABILITIES } from '~/server/staff';
import { commandLineActor } from '~/server/audit';

export const DEMO_USERS = [
  { email: 'reader@inkpass.test', displayName: 'Demo Reader', password: 'reader-demo-1', capabilities: [], keys: 30, xtra: 10 },
  { email: 'staff@inkpass.test', displayName: 'Demo Staff', password: 'staff-demo-1', capabilities: CAPABILITIES, keys: 200, xtra: 50 },
] as const;

/** Returns the emails it created (none when they all exist). */
export async function seedDemoUsers(db: DB): Promise<string[]> {
  const created: string[] = [];
  for (const u of DEMO_USERS) {
    let user = await findUserByEmail(db, u.email);
    if (!user && (await createUser(db, { ...u, isDemo: true }))) {
      created.push(u.email);
      user = await findUserByEmail(db, u.email);
    }
    // A staff account from before capabilities (the migration made it an admin) gets the rest.
    if (user && !created.includes(u.email)) {
      for (const capability of u.capabilities) await changeCapability(db, { email: u.email, capability, change: 'grant', actor: commandLineActor('admin') });
    }
    if (user) await grantKeys(db, { userId: user.id, keys: u.keys, xtra: u.xtra, reason: 'demo account', key: `seed:demo:${u.email}`, now: Math.floor(Date.now() / 1000) });
  }
  return created;
}
