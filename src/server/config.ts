import path from 'node:path';

/**
 * All configuration is read here, once. Both the Astro server and the plain
 * Node scripts (migrate, seed, user) import it, which is why it reads
 * process.env rather than astro:env (scripts run outside Vite).
 */
export interface Config {
  databaseUrl: string;
  mediaDir: string;
  /** Where the server keeps files it creates for itself (the generated secret). */
  dataDir: string;
  /** The root signing secret from INKPASS_SECRET, or null to use the generated one (src/server/secrets.ts). */
  secret: string | null;
  /**
   * The request header a CDN or proxy sets to the visitor's ISO country (e.g. `cf-ipcountry`),
   * lower-cased; null when none is configured, and then no header is believed.
   */
  countryHeader: string | null;
  /** How long a request body may take to arrive before the answer is 408. */
  bodyTimeoutMs: number;
  production: boolean;
}

export const SECRET_MIN_LENGTH = 32;

function read(): Config {
  const env = process.env;
  const production = env.NODE_ENV === 'production';
  const databaseUrl = env.DATABASE_URL?.trim() || 'file:./data/inkpass.db';
  if (!/^(file:|postgres(ql)?:\/\/|:memory:$)/.test(databaseUrl)) {
    throw new Error(`DATABASE_URL must start with file:, postgres:// or be :memory: (got "${databaseUrl}")`);
  }
  if (env.MEDIA_SECRET) throw new Error('MEDIA_SECRET is no longer read: set INKPASS_SECRET instead (docs/operations.md)');
  const secret = env.INKPASS_SECRET?.trim() || null;
  if (secret !== null && secret.length < SECRET_MIN_LENGTH) {
    throw new Error(`INKPASS_SECRET must be at least ${SECRET_MIN_LENGTH} characters (try: openssl rand -base64 32)`);
  }
  const countryHeader = env.COUNTRY_HEADER?.trim().toLowerCase() || null;
  if (countryHeader !== null && !/^[a-z0-9-]{1,64}$/.test(countryHeader)) {
    throw new Error(`COUNTRY_HEADER must be a header name such as cf-ipcountry (got "${env.COUNTRY_HEADER}")`);
  }
  const bodyTimeout = env.BODY_TIMEOUT_MS?.trim();
  if (bodyTimeout && !/^\d{3,6}$/.test(bodyTimeout)) throw new Error(`BODY_TIMEOUT_MS must be milliseconds between 100 and 999999 (got "${bodyTimeout}")`);
  return {
    databaseUrl,
    mediaDir: path.resolve(env.MEDIA_DIR?.trim() || './data/media'),
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    secret,
    countryHeader,
    bodyTimeoutMs: bodyTimeout ? Number(bodyTimeout) : 10_000,
    production,
  };
}

export const config: Config = read();
