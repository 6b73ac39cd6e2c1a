import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyFor, loadOrCreate } from './secrets';

const made: string[] = [];
function tmpDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-secret-'));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the generated root secret', () => {
  it('is created once, readable by its owner only, and the same on every later start', () => {
    const file = path.join(tmpDir(), 'nested', 'secret.key');
    const first = loadOrCreate(file);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreate(file).equals(first)).toBe(true);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['secret.key']);
  });

  it('is different on every install', () => {
    expect(loadOrCreate(path.join(tmpDir(), 'secret.key')).equals(loadOrCreate(path.join(tmpDir(), 'secret.key')))).toBe(false);
  });

  it('refuses a file that holds no usable secret instead of signing with it', () => {
    const file = path.join(tmpDir(), 'secret.key');
    fs.writeFileSync(file, 'short\n');
    expect(() => loadOrCreate(file)).toThrow(/no usable secret/);
  });

  it('ends up the same in processes that start at the same moment', { timeout: 60_000 }, async () => {
    const file = path.join(tmpDir(), 'secret.key');
    const script = `import { loadOrCreate } from ${JSON.stringify(path.resolve('src/server/secrets.ts'))}; process.stdout.write(loadOrCreate(${JSON.stringify(file)}).toString('hex'));`;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (c) => (out += c));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
      });
    const secrets = await Promise.all([run(), run(), run(), run()]);
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toBe(fs.readFileSync(file).toString('hex').replace(/0a$/, ''));
  });
});

describe('keys per purpose', () => {
  it('derives a distinct 32-byte key for every purpose', () => {
    const purposes = ['page-url', 'progress-token', 'app-token', 'payment-webhook', 'app-check', 'app-check-key'] as const;
    const keys = purposes.map((p) => keyFor(p).toString('hex'));
    expect(new Set(keys).size).toBe(purposes.length);
    for (const k of keys) expect(k).toHaveLength(64);
    expect(keyFor('page-url').toString('hex')).toBe(keys[0]);
  });
});
