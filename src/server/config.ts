import path from 'node:path';

/**
 * All configuration is read here, once. Both the Astro server and the plain
 * Node scripts (migrate, seed, user) import it, which is why it reads
 * process.env rather than astro:env (scripts run outside Vite).
 */
export interface Config {
  databaseUrl: string;
  mediaDir: string;
  /** Secret for signing page-image URLs; a fixed dev default, required in production. */
  mediaSecret: string;
  production: boolean;
}

function read(): Config {
  const env = process.env;
  const production = env.NODE_ENV === 'production';
  const databaseUrl = env.DATABASE_URL?.trim() || 'file:./data/inkpass.db';
  if (!/^(file:|postgres(ql)?:\/\/|:memory:$)/.test(databaseUrl)) {
    throw new Error(`DATABASE_URL must start with file:, postgres:// or be :memory: (got "${databaseUrl}")`);
  }
  const mediaSecret = env.MEDIA_SECRET?.trim() || '';
  if (production && env.INKPASS_REQUIRE_SECRETS === '1' && !mediaSecret) {
    throw new Error('MEDIA_SECRET must be set in production');
  }
  return {
    databaseUrl,
    mediaDir: path.resolve(env.MEDIA_DIR?.trim() || './data/media'),
    mediaSecret: mediaSecret || 'inkpass-local-development-secret',
    production,
  };
}

export const config: Config = read();
