/** POST /api/subscription/add-comic: JSON `{comic_id}` → `{success, error, slots_left}` (docs/subscriptions.md). */
export { addComicRoute as POST } from '~/features/subscriptions/index.server';
