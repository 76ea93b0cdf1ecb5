import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildAll } from '../../esbuild.config.mjs';
import { addServiceStacks } from '../app';

// The stack deploys build/<name>/ as it is: bundle first, so a fresh clone synthesizes with no
// separate build step and never ships a stale bundle.
await buildAll();

const app = new App();
addServiceStacks(app, { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION });
// Any unacknowledged AwsSolutions finding fails the synth, as it fails the tests.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
