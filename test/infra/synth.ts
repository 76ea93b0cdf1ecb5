import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { addServiceStacks } from '#infra/app';

interface ValidationReport {
  pluginReports: {
    pluginName: string;
    violations: { ruleName: string; violatingConstructs?: { constructPath: string }[] }[];
  }[];
}

type Json = Record<string, any>;

/**
 * The service's stacks as `cdk synth` makes them: the feature flags of cdk.json, the cdk-nag
 * AwsSolutions pack registered on the app and CDK's built-in template validation, for the prod
 * stage unless `context` says otherwise. Findings are collected from the validation report instead
 * of thrown, so one finding fails one test.
 *
 * `template` is the service as one template: the root stack's resources and those of its nested
 * stacks, each nested parameter replaced by what the root passes in and each nested output by its
 * value, so a reference reads the same wherever the two resources live. `templates` holds every
 * template as CloudFormation receives it, the WAF stack's included.
 */
export function synthesize(context: Record<string, unknown> = {}) {
  const { context: flags } = JSON.parse(readFileSync('cdk.json', 'utf8')) as {
    context: Record<string, unknown>;
  };
  const outdir = mkdtempSync(join(tmpdir(), 'payment-service-cdk-'));
  const app = new App({
    outdir,
    context: { ...flags, stage: 'prod', ...context, '@aws-cdk/core:failSynthOnValidationErrors': false },
  });
  const { service: stack, waf } = addServiceStacks(app);
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
  const nested = stack.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack);
  const template = Template.fromJSON(flatten(stack, nested));
  const logicalId = (construct: IConstruct) =>
    Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
  const templates = readdirSync(assembly.directory)
    .filter((f) => f.endsWith('.template.json'))
    .map((file) => ({ file, body: readFileSync(join(assembly.directory, file), 'utf8') }));
  const dispose = () => rmSync(outdir, { recursive: true, force: true });
  return { stack, waf, nested, template, logicalId, findings, templates, assembly, dispose };
}

export type Synthesized = ReturnType<typeof synthesize>;

/** The root template with every nested stack's resources folded in, references resolved. */
function flatten(root: Stack, nested: NestedStack[]): Json {
  const rootJson = Template.fromStack(root).toJSON();
  const byResource = new Map<string, { json: Json; parameters: Json }>();
  for (const n of nested) {
    const id = root.getLogicalId(n.nestedStackResource as CfnElement);
    byResource.set(id, {
      json: Template.fromStack(n).toJSON(),
      parameters: rootJson.Resources[id].Properties.Parameters ?? {},
    });
  }
  const resolve = (value: unknown, parameters: Json): unknown => {
    if (Array.isArray(value)) return value.map((v) => resolve(v, parameters));
    if (!value || typeof value !== 'object') return value;
    const object = value as Json;
    const keys = Object.keys(object);
    if (keys.length === 1 && keys[0] === 'Ref' && object.Ref in parameters)
      return resolve(parameters[object.Ref], {});
    if (keys.length === 1 && keys[0] === 'Fn::GetAtt') {
      const [resource, attribute] = object['Fn::GetAtt'] as [string, string];
      const from = byResource.get(resource);
      if (from && attribute.startsWith('Outputs.'))
        return resolve(from.json.Outputs[attribute.slice('Outputs.'.length)].Value, from.parameters);
    }
    return Object.fromEntries(keys.map((k) => [k, resolve(object[k], parameters)]));
  };
  const resources: Json = resolve(rootJson.Resources, {}) as Json;
  for (const { json, parameters } of byResource.values()) {
    for (const [id, resource] of Object.entries(json.Resources as Json)) {
      if (id in resources) throw new Error(`logical id ${id} is used by two stacks`);
      resources[id] = resolve(resource, parameters);
    }
  }
  return { ...rootJson, Resources: resources };
}
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
