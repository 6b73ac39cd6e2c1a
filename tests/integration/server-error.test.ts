import { spawn, type ChildProcess } from 'node:child_process';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ROOT, MEDIA_DIR, freePort, waitUntilAnswering, httpRequest, message, leakIn } from './harness';

/**
 * A server whose database is gone: every page that needs data fails. Readers must get the
 * localized 500 page (JSON for APIs), never a stack trace, and the process must keep serving.
 */
describe('when the database is unreachable', () => {
  let child: ChildProcess;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    child = spawn(process.execPath, ['scripts/serve.mjs'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', MEDIA_DIR, NODE_ENV: 'production', DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/inkpass_this_database_does_not_exist' },
      // Piped so that the wait knows this server, not another test's, is the one answering.
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.stdout!.resume();
    await waitUntilAnswering(port, child, 30_000);
  }, 60_000);
  afterAll(() => { child?.kill('SIGTERM'); });

  it('shows the localized 500 page on each site without internals, with the id a reader quotes to support', async () => {
    const ids = new Set<string>();
    for (const [site, locale] of [['en', 'en'], ['br', 'pt-BR']] as const) {
      // A client cannot choose its request's id (only a trusted proxy may pass one on).
      const res = await httpRequest(port, '/comics/some-series/', { site, headers: { 'x-request-id': 'chosen-by-the-client' } });
      expect(res.status).toBe(500);
      expect(res.text).toContain(message(locale, 'error.server.title'));
      const id = String(res.headers['x-request-id']);
      expect(id).toMatch(/^[A-Za-z0-9_-]{12}$/);
      expect(res.text).toContain(message(locale, 'error.server.reference', { id }));
      ids.add(id);
      expect(leakIn(res.text)).toBeNull();
      expect(res.text).not.toMatch(/inkpass_this_database_does_not_exist|ECONNREFUSED|does not exist/);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(ids.size).toBe(2);
  });

  it('answers API clients with a JSON error and keeps serving pages that need no data', async () => {
    const api = await httpRequest(port, '/api/comic.public/1/');
    expect(api.status).toBe(500);
    expect(JSON.parse(api.text)).toHaveProperty('detail');
    expect(leakIn(api.text)).toBeNull();
    const about = await httpRequest(port, '/about/');
    expect(about.status).toBe(200);
  });
});
