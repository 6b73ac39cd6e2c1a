import { relayRoute } from '~/features/schedule/relay.server';

/** GET /relay/consumer/{publisher}/series/{ids}/updates (docs/api.md, "Relay"). */
export const GET = relayRoute('updates');
