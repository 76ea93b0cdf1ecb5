import { spawnSync } from 'node:child_process';

// What the test suite runs outside node: every test runs everywhere, so a missing tool stops the
// run with one sentence instead of a test that skips itself.
const tools = [
  {
    command: ['java', '-version'],
    need: 'DynamoDB Local needs Java 17 or newer',
    install: 'a JDK or JRE (for example `apt-get install openjdk-17-jre-headless`)',
  },
  {
    command: ['chromium', '--version'],
    need: 'The /docs page is rendered in Chromium (test/integration/docs.test.ts)',
    install: "Debian's Chromium (`apt-get install chromium`)",
  },
  {
    command: ['pdftotext', '-v'],
    need: 'The boleto PDF is read back with pdftotext (test/unit/payments/pdf.test.ts)',
    install: 'poppler-utils (`apt-get install poppler-utils`)',
  },
];

let missing = 0;
for (const tool of tools) {
  const probe = spawnSync(tool.command[0], tool.command.slice(1), { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    console.error(
      `${tool.need}, and no \`${tool.command[0]}\` was found on the PATH: install ${tool.install} and try again.`,
    );
    missing += 1;
  }
}
if (missing > 0) process.exit(1);
