/**
 * Demo accounts (README "Demo accounts"): a reader and a staff member, created if absent
 * through the same service the sign-up page uses.
 */
import type { DB } from '~/server/db';
import { createUser, findUserByEmail } from '~/features/accounts/index.server';

export const DEMO_USERS = [
  { email: 'reader@inkpass.test', displayName: 'Demo Reader', password: 'reader-demo-1', isStaff: false },
  { email: 'staff@inkpass.test', displayName: 'Demo Staff', password: 'staff-demo-1', isStaff: true },
] as const;

/** Returns the emails it created (none when they all exist). */
export async function seedDemoUsers(db: DB): Promise<string[]> {
  const created: string[] = [];
  for (const u of DEMO_USERS) {
    if (await findUserByEmail(db, u.email)) continue;
    if (await createUser(db, u)) created.push(u.email);
  }
  return created;
}
