import { spawnSync } from 'node:child_process';

// What the test suite runs outside node: every test runs everywhere, so a missing tool stops the
// run with one sentence instead of a test that skips itself. Chromium comes from npm
// (@sparticuz/chromium) and the boleto PDF is read with PDF.js: Java is the one thing npm cannot bring.
const tools = [
  {
    command: ['java', '-version'],
    need: 'DynamoDB Local needs Java 17 or newer',
    install: 'a JDK or JRE (for example `apt-get install openjdk-17-jre-headless`)',
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
