/**
 * Whether a page offers push to its signed-in reader, looked up once per request (a favorites
 * page has a notify button per entry): the VAPID public key, or null when this server sends no
 * push or the reader said no to push for new chapters.
 */
import { getDb } from '~/server/db';
import { chapterPushRefused, pushPublicKey } from './push.server';

const perRequest = new WeakMap<Request, Promise<string | null>>();

export function pushOffer(request: Request, userId: number): Promise<string | null> {
  let found = perRequest.get(request);
  if (!found) {
    const key = pushPublicKey();
    found = key ? getDb().then((db) => chapterPushRefused(db, userId)).then((refused) => (refused ? null : key)) : Promise.resolve(null);
    perRequest.set(request, found);
  }
  return found;
}
