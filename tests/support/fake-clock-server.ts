/**
 * A second e2e server over the same database with its clock injected (tests/support/fake-clock.mjs):
 * what a reader sees minutes or days later, without touching the data (tests/e2e/studio.spec.ts,
 * tests/e2e/comments.spec.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { e2eServerEnv } from './e2e-server';
import { freePort } from './free-port';

/**
 * A second server over the e2e database, with the e2e web server's environment
 * (playwright.config.ts) and its clock set to `nowSeconds` (ticking from there).
 */
export async function startFakeClockServer(nowSeconds: number): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['scripts/serve.mjs'], {
    env: {
      ...e2eServerEnv(port),
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${path.resolve('tests/support/fake-clock.mjs')}`.trim(),
      INKPASS_FAKE_NOW: String(nowSeconds),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the fake-clock server did not start:\n${output}`)), 60_000);
    const seen = (chunk: Buffer) => {
      output += String(chunk);
      if (/Inkpass is serving/.test(output)) { clearTimeout(timer); resolve(); }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', (c) => { output += String(c); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the fake-clock server exited (${code}):\n${output}`)); });
  });
  child.removeAllListeners('exit');
  return {
    port,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    }),
  };
}
