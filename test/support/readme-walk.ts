import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One shell block of the README's walk, with the heading it sits under. */
export interface WalkBlock {
  heading: string;
  code: string;
}

/** A block the walk leaves out carries this comment on the line before its fence, with the reason. */
export const SKIP_MARKER = '<!-- not in the walk:';

/**
 * The README's walk: every ```bash and ```sh block from `## Try it` to the next `## ` heading, in
 * order, except the blocks marked with SKIP_MARKER (one that needs a real Asaas account).
 */
export function walkBlocks(readme: string): WalkBlock[] {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => l.startsWith('## Try it'));
  if (start < 0) throw new Error('the README has no "## Try it" section');
  const blocks: WalkBlock[] = [];
  let heading = lines[start];
  for (let i = start + 1; i < lines.length && !lines[i].startsWith('## '); i++) {
    if (lines[i].startsWith('### ')) heading = lines[i];
    if (!/^```(bash|sh)\s*$/.test(lines[i])) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`unclosed block after line ${i + 1}`);
    if (!lines[i - 1]?.startsWith(SKIP_MARKER)) {
      blocks.push({ heading: heading.replace(/^#+ /, ''), code: lines.slice(i + 1, end).join('\n') });
    }
    i = end;
  }
  return blocks;
}

/** One HTTP answer curl got during the walk. */
export interface Answer {
  block: number;
  status: number;
  request: string;
}

export interface WalkRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  answers: Answer[];
}

/** `curl` reports each answer on stderr, which the walk reads back per block. */
const REPORT = 'WALK-HTTP';

/**
 * Runs the blocks top to bottom in one bash (`set -euo pipefail`, so any failing command stops
 * it) from `cwd`, as a person pasting them into one terminal would. Anything it starts in the
 * background (the webhook receiver) is stopped with it.
 */
export async function runWalk(blocks: WalkBlock[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const script = [
    'set -euo pipefail',
    `curl() { command curl -w '%{stderr}${REPORT} %{http_code} %{method} %{url_effective}\\n' "$@"; }`,
    ...blocks.flatMap((b, n) => [`echo '${REPORT}-BLOCK ${n}' >&2`, b.code]),
  ].join('\n');
  const child = spawn('bash', ['-c', script], {
    cwd: options.cwd,
    env: withCurl(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => {
    stdout += c;
  });
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  // The walk leaves the receiver running in the background, as a terminal would.
  try {
    process.kill(-(child.pid as number), 'SIGTERM');
  } catch {
    // nothing left
  }
  await new Promise((r) => setTimeout(r, 100));
  const answers: Answer[] = [];
  let block = -1;
  for (const line of stderr.split('\n')) {
    const marker = new RegExp(`^${REPORT}-BLOCK (\\d+)$`).exec(line);
    if (marker) block = Number(marker[1]);
    const answer = new RegExp(`^${REPORT} (\\d{3}) (.*)$`).exec(line);
    if (answer) answers.push({ block, status: Number(answer[1]), request: answer[2] });
  }
  return { exitCode, stdout, stderr, answers } satisfies WalkRun;
}

/** The statuses a block's comments say it answers (`# 409 while scheduled`). */
export function announcedStatuses(code: string): Set<number> {
  const statuses = new Set<number>();
  for (const comment of code.matchAll(/#[^\n]*/g)) {
    for (const n of comment[0].matchAll(/\b([1-5]\d\d)\b/g)) statuses.add(Number(n[1]));
  }
  return statuses;
}

/**
 * The environment with a `curl` on its PATH: the machine's, or (a machine with only Node and Java)
 * a small Node one that does what the README asks of curl: -s, -X, -H, -d, -o and this -w.
 */
function withCurl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (spawnSync('sh', ['-c', 'command -v curl'], { env }).status === 0) return env;
  const bin = mkdtempSync(join(tmpdir(), 'ps-walk-curl-'));
  const shim = join(bin, 'curl');
  writeFileSync(shim, CURL_SHIM);
  chmodSync(shim, 0o755);
  return { ...env, PATH: `${bin}:${env.PATH ?? ''}` };
}

const CURL_SHIM = `#!/usr/bin/env node
const args = process.argv.slice(2);
let method; let data; let out; let format = ''; let url; const headers = {};
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '-s') continue;
  else if (a === '-X') method = args[++i];
  else if (a === '-H') { const h = args[++i]; const at = h.indexOf(':'); headers[h.slice(0, at).trim()] = h.slice(at + 1).trim(); }
  else if (a === '-d') data = args[++i];
  else if (a === '-o') out = args[++i];
  else if (a === '-w') format = args[++i];
  else if (a.startsWith('-')) { console.error('curl (walk shim): unsupported option ' + a); process.exit(2); }
  else url = a;
}
if (!/^https?:/.test(url)) url = 'http://' + url;
method ??= data === undefined ? 'GET' : 'POST';
if (data !== undefined) headers['content-type'] ??= 'application/x-www-form-urlencoded';
const report = (status) => {
  if (!format) return;
  const text = format.replace('%{stderr}', '').replace('%{http_code}', String(status).padStart(3, '0'))
    .replace('%{method}', method).replace('%{url_effective}', url).replace(/\\\\n/g, '\\n');
  (format.startsWith('%{stderr}') ? process.stderr : process.stdout).write(text);
};
fetch(url, { method, headers, body: data }).then(async (res) => {
  const body = Buffer.from(await res.arrayBuffer());
  if (out) require('node:fs').writeFileSync(out, body); else process.stdout.write(body);
  report(res.status);
}, () => { report(0); process.exit(7); });
`;
