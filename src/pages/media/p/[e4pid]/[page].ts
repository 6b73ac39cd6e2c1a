/** Chapter page images, only through signed, expiring URLs handed out by the reader (docs/reader.md). */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { chapterPageResponse } from '~/features/reader/index.server';

export const GET: APIRoute = async ({ url, request, locals }) => chapterPageResponse(await getDb(), url, request, locals);

export const HEAD = GET;
