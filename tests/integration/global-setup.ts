/**
 * Starts one server per selected dialect for the whole integration run (each on its own fresh
 * database) and hands their ports to the test files through `provide('inkpassServers')`.
 * Dialects start one after the other: the first seed generates the images (in ART_DIR) the
 * second one reuses. This run's media folder starts empty (`resetRunMedia`). A dialect that
 * cannot start is reported to its tests (which then fail with the reason) instead of failing
 * the other dialect's tests too.
 */
import type { TestProject } from 'vitest/node';
import { resetRunMedia, selectedDialects, startServer, type ServerHandle, type ServerInfo, type TestDialect } from './harness';

export default async function setup(project: TestProject) {
  const handles: ServerHandle[] = [];
  const infos: Partial<Record<TestDialect, ServerInfo>> = {};
  resetRunMedia();
  for (const dialect of selectedDialects()) {
    const started = Date.now();
    try {
      const h = await startServer({ dialect });
      handles.push(h);
      infos[dialect] = { dialect, port: h.port, databaseUrl: h.databaseUrl, pid: h.pid };
      console.log(`[integration] ${dialect} server on port ${h.port} (${h.databaseUrl}) ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (e) {
      const msg = (e as Error).message;
      infos[dialect] = { dialect, error: msg };
      console.error(`[integration] ${dialect} server failed to start:\n${msg}`);
    }
  }
  project.provide('inkpassServers', infos);

  return async () => {
    for (const h of handles) {
      try {
        await h.stop();
      } catch (e) {
        console.error(`[integration] stopping the ${h.dialect} server: ${(e as Error).message}`);
      }
    }
  };
}
