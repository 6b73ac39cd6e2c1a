/** Public images (covers, banners, thumbnails) from the media folder; see src/server/media.ts. */
import type { APIRoute } from 'astro';
import { publicMediaResponse } from '~/server/media';

export const GET: APIRoute = ({ url, request }) => publicMediaResponse(url, request);

export const HEAD = GET;
