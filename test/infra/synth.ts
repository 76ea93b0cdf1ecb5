import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { PaymentServiceStack } from '#infra/stack';

interface ValidationReport {
  pluginReports: {
    pluginName: string;
    violations: { ruleName: string; violatingConstructs?: { constructPath: string }[] }[];
  }[];
}

/**
 * Synthesizes the stack the way `cdk synth` does: the feature flags of cdk.json, the cdk-nag
 * AwsSolutions pack registered on the app and CDK's built-in template validation. Findings are
 * collected from the validation report instead of thrown, so one finding fails one test.
 */
export function synthesize() {
  const { context } = JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: Record<string, unknown> };
  const outdir = mkdtempSync(join(tmpdir(), 'payment-service-cdk-'));
  const app = new App({
    outdir,
    context: { ...context, '@aws-cdk/core:failSynthOnValidationErrors': false },
  });
  const stack = new PaymentServiceStack(app, 'PaymentService');
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const assembly = app.synth();
  const report = JSON.parse(
    readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8'),
  ) as ValidationReport;
  const findings = report.pluginReports.flatMap((r) =>
    r.violations.map(
      (v) =>
        `${r.pluginName} ${v.ruleName} ${v.violatingConstructs?.map((c) => c.constructPath).join(', ') ?? ''}`,
    ),
  );
  const template = Template.fromStack(stack);
  const logicalId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
  const dispose = () => rmSync(outdir, { recursive: true, force: true });
  return { stack, template, logicalId, findings, dispose };
}

export type Synthesized = ReturnType<typeof synthesize>;

interface PolicyStatement {
  Action: string | string[];
  Resource: unknown;
}

/** Every statement of the inline policies attached to a role, by the role's logical id. */
export function statementsOfRole(template: Template, roleLogicalId: string): PolicyStatement[] {
  const policies = Object.values(template.findResources('AWS::IAM::Policy')) as {
    Properties: { Roles: { Ref: string }[]; PolicyDocument: { Statement: PolicyStatement[] } };
  }[];
  return policies
    .filter((p) => p.Properties.Roles.some((r) => r.Ref === roleLogicalId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}

export const actionsOf = (statements: PolicyStatement[]) =>
  statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
