import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { readBytes } from '~/server/body';
import { json } from '~/server/http';
import { pixWebhookAnswer } from '~/features/commerce/index.server';

/** A webhook body is a small JSON event; anything larger is not one. */
const WEBHOOK_MAX_BYTES = 16 * 1024;

/**
 * POST /webhooks/pix/: a Pix PSP's signed event about a charge. Verified over the raw bytes (a
 * body changed by one byte fails), then applied through the one payment confirmation. 401 on a
 * missing or wrong signature, changing nothing. Not subject to the same-origin rule: the PSP's
 * signature is what authenticates it.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const bytes = await readBytes(request, WEBHOOK_MAX_BYTES);
  if (!bytes.ok) return json({ detail: bytes.reason }, { status: bytes.status, cache: 'no-store' });
  const answer = await pixWebhookAnswer(await getDb(), { rawBody: Buffer.from(bytes.value), headers: request.headers, now: locals.now });
  return json(answer.body, { status: answer.status, cache: 'no-store' });
};
