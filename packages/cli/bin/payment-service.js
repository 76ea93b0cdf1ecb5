#!/usr/bin/env node
// The CLI's sources are TypeScript, run through tsx as the rest of the repository (no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
