import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `npm start`'s address (4000 is the README's webhook receiver, where `listen` forwards). */
export const DEFAULT_API_URL = 'http://localhost:3000';

/** What `login` keeps: the key (never printed back whole), the API and the CLI's signing secret. */
export interface CliConfig {
  apiUrl: string;
  apiKey: string;
  /** Signs what `listen` forwards, as the service signs its webhooks; made anew at each login. */
  webhookSecret: string;
  /** The URL the last `listen` forwarded to: where `events resend` sends an event too. */
  forwardTo?: string;
}

/** `$XDG_CONFIG_HOME/payment-service` (default `~/.config/payment-service`), as most CLIs on Linux and macOS. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'payment-service');
}

export const configFile = (env?: NodeJS.ProcessEnv) => join(configDir(env), 'config.json');

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

/** `sk_test_…wxyz`: enough to tell keys apart, never enough to use one. */
export const maskKey = (key: string) => `${key.slice(0, key.indexOf('_', 3) + 1)}…${key.slice(-4)}`;

export async function saveConfig(config: CliConfig, env?: NodeJS.ProcessEnv): Promise<string> {
  const dir = configDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = configFile(env);
  // mode applies when the file is created; chmod tightens a file an older login left wider.
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return file;
}

export async function loadConfig(env?: NodeJS.ProcessEnv): Promise<CliConfig> {
  let text: string;
  try {
    text = await readFile(configFile(env), 'utf8');
  } catch {
    throw new CliError('Not logged in: run `payment-service login` first');
  }
  return JSON.parse(text) as CliConfig;
}

/** A failure the CLI explains in one line and exits 1 with (no stack trace). */
export class CliError extends Error {}
