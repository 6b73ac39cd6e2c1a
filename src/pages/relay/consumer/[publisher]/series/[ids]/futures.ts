import { relayRoute } from '~/features/schedule/index.server';

/** GET /relay/consumer/{publisher}/series/{ids}/futures (docs/api.md, "Relay"). */
export const GET = relayRoute('futures');
