import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { apiClient } from './api';
import { CliError, DEFAULT_API_URL, loadConfig, maskKey, newWebhookSecret, saveConfig } from './config';
import { type Envelope, forwardEvent, forwardLine } from './forward';
import { listen } from './listen';
import { tailLogs } from './logs';
import { howMade, RECIPES, TRIGGERABLE, trigger, UnknownEventError } from './trigger';

const USAGE = `Usage: payment-service <command> [options]

  login [--api-key sk_test_…] [--api-url ${DEFAULT_API_URL}]
                          check an API key and keep it (0600) for the other commands
  listen --forward-to <url> [--since <ISO instant>]
                          forward the seller's events to a local URL, signed with the CLI's secret
  trigger <event>         make, in the sandbox, the objects that emit the event
  trigger --list          list every event trigger knows (the whole catalog)
  events resend <id> [--forward-to <url>]
                          resend an event to the endpoints that received it, and to the listen target
  logs tail [--limit 20] [--status 400] [--method POST] [--once]
                          show the latest API requests of the seller and follow new ones`;

const OPTIONS = {
  'api-key': { type: 'string' },
  'api-url': { type: 'string' },
  'forward-to': { type: 'string' },
  since: { type: 'string' },
  list: { type: 'boolean' },
  limit: { type: 'string' },
  status: { type: 'string' },
  method: { type: 'string' },
  once: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

const print = (line: string) => process.stdout.write(`${line}\n`);

/** Until Ctrl-C (or SIGTERM): the long-running commands check it between polls. */
function untilInterrupted() {
  let stop = false;
  const onSignal = () => {
    if (stop) process.exit(130);
    stop = true;
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => stop;
}

async function login(values: Values) {
  const apiUrl = values['api-url'] ?? DEFAULT_API_URL;
  let apiKey = values['api-key'];
  if (!apiKey) {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    apiKey = (await rl.question('API key (sk_test_… or sk_live_…): ')).trim();
    rl.close();
  }
  if (!/^sk_(test|live)_[A-Za-z0-9]+$/.test(apiKey))
    throw new CliError(
      'An API key starts with sk_test_ or sk_live_ (create one in the dashboard, Desenvolvedores)',
    );
  const answer = await apiClient(apiUrl, apiKey).call('GET', '/api/events?limit=1');
  if (answer.status === 401 || answer.status === 403)
    throw new CliError(`The API refused the key ${maskKey(apiKey)} (${answer.status}): nothing was saved`);
  if (answer.status !== 200) throw new CliError(`${apiUrl} answered ${answer.status}: nothing was saved`);
  const file = await saveConfig({ apiUrl, apiKey, webhookSecret: newWebhookSecret() });
  print(`Logged in to ${apiUrl} with ${maskKey(apiKey)} (kept in ${file}, readable by you only)`);
}

async function runListen(values: Values) {
  const forwardTo = values['forward-to'];
  if (!forwardTo) throw new CliError('listen needs --forward-to <url>, e.g. http://localhost:4000/hook');
  if (values.since && Number.isNaN(Date.parse(values.since)))
    throw new CliError('--since must be an ISO 8601 instant, e.g. 2026-11-28T12:00:00Z');
  const config = await loadConfig();
  await saveConfig({ ...config, forwardTo });
  await listen(apiClient(config.apiUrl, config.apiKey), {
    forwardTo,
    secret: config.webhookSecret,
    since: values.since,
    print,
    ready: () => {
      print(`Ready! Your webhook signing secret is ${config.webhookSecret} (^C to quit)`);
      print(`Forwarding ${values.since ? `events since ${values.since}` : 'new events'} to ${forwardTo}`);
    },
    stopped: untilInterrupted(),
  });
}

async function runTrigger(positionals: string[], values: Values) {
  if (values.list) {
    for (const name of TRIGGERABLE) print(`${name.padEnd(48)} ${howMade(name)}`);
    return;
  }
  const event = positionals[1];
  if (!event) throw new CliError('trigger needs an event name: `payment-service trigger --list` lists them');
  if (!(event in RECIPES)) throw new CliError(new UnknownEventError(event).message);
  const config = await loadConfig();
  if (!config.apiKey.startsWith('sk_test_'))
    throw new CliError('trigger works in the sandbox only: log in with an sk_test_ key');
  await trigger(apiClient(config.apiUrl, config.apiKey), event);
  print(`Triggered ${event}`);
}

async function resend(positionals: string[], values: Values) {
  const id = positionals[2];
  if (positionals[1] !== 'resend' || !id) throw new CliError('Usage: payment-service events resend <evt_…>');
  const config = await loadConfig();
  const api = apiClient(config.apiUrl, config.apiKey);
  const event = await api.get(`/api/events/${encodeURIComponent(id)}`);
  for (const delivery of event.deliveries as { id: string; endpointId: string }[]) {
    const sent = await api.post(`/api/webhook-deliveries/${delivery.id}/resend`);
    print(`Resent ${id} to endpoint ${delivery.endpointId}: ${sent.status}`);
  }
  const target = values['forward-to'] ?? config.forwardTo;
  if (target) {
    const envelope: Envelope = {
      id: event.id,
      event: event.event,
      timestamp: event.timestamp,
      data: event.data,
    };
    print(forwardLine(envelope, target, await forwardEvent(target, config.webhookSecret, envelope)));
  } else if (event.deliveries.length === 0) {
    print(`No endpoint received ${id}; pass --forward-to <url> to send it to a local listener`);
  }
}

async function run(argv: string[]) {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  const [command, sub] = positionals;
  if (values.help || !command) return print(USAGE);
  if (command === 'login') return login(values);
  if (command === 'listen') return runListen(values);
  if (command === 'trigger') return runTrigger(positionals, values);
  if (command === 'events') return resend(positionals, values);
  if (command === 'logs' && sub === 'tail') {
    const config = await loadConfig();
    return tailLogs(apiClient(config.apiUrl, config.apiKey), {
      limit: Number(values.limit ?? 20),
      status: values.status,
      method: values.method,
      once: values.once ?? false,
      print,
      stopped: untilInterrupted(),
    });
  }
  throw new CliError(`Unknown command: ${positionals.join(' ')}\n\n${USAGE}`);
}

/** Runs one command; the exit code it returns is the process's. */
export async function main(argv: string[]): Promise<number> {
  try {
    await run(argv);
    return 0;
  } catch (error) {
    if (error instanceof CliError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(error as Error).message}\n`);
      return 1;
    }
    process.stderr.write(`${(error as Error).stack ?? error}\n`);
    return 1;
  }
}
