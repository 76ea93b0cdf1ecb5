import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LOG_FORMAT } from '#infra/constructs/api';
import { DASHBOARD_PATH, HSTS_MAX_AGE, SPA_FALLBACK_CODE } from '#infra/constructs/edge';
import {
  isPublicPath,
  MANAGED_RULE_GROUPS,
  publicPathMatches,
  REDACTED_HEADERS,
} from '#infra/constructs/waf';
import { httpGroups } from '#infra/routes';
import { customDomainOf, STAGES, stageOf } from '#infra/stages';
import { ASAAS_BASE_URLS } from '#shared/adapters/asaas/client';
import { ENV } from '#shared/config';
import { PAGE_CSP } from '#shared/http/page-replies';
import { type Synthesized, synthesize } from './synth';

/** CloudFormation's hard limit is 500 resources and 1 MB per template body: these keep room for growth. */
const MAX_RESOURCES = 300;
const MAX_TEMPLATE_BYTES = 800 * 1024;

const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789';

let prod: Synthesized;
let dev: Synthesized;
beforeAll(() => {
  prod = synthesize();
  dev = synthesize({ stage: 'dev', domainName: 'pagamentos.loja.com.br', certificateArn: CERTIFICATE });
});
afterAll(() => {
  prod?.dispose();
  dev?.dispose();
});

const resourcesOf = (s: Synthesized, type: string) =>
  Object.entries(s.template.findResources(type)) as [string, { Properties: Record<string, any> }][];
const wafTemplate = (s: Synthesized) =>
  JSON.parse(s.templates.find((t) => t.file.startsWith(s.waf.stackName))?.body as string);
const distributionConfig = (s: Synthesized) =>
  resourcesOf(s, 'AWS::CloudFront::Distribution')[0][1].Properties.DistributionConfig;
const fnVars = (s: Synthesized, name: string) =>
  s.template.toJSON().Resources[s.logicalId(s.stack.functions.get(name))].Properties.Environment.Variables;

describe('headroom', () => {
  it(`keeps every template at ${MAX_RESOURCES} resources and ${MAX_TEMPLATE_BYTES / 1024} KB at most`, () => {
    for (const s of [prod, dev]) {
      // The root, its three nested stacks and the WAF stack.
      expect(s.templates).toHaveLength(5);
      for (const { file, body } of s.templates) {
        expect(Object.keys(JSON.parse(body).Resources ?? {}).length, file).toBeLessThanOrEqual(MAX_RESOURCES);
        expect(Buffer.byteLength(body), file).toBeLessThanOrEqual(MAX_TEMPLATE_BYTES);
      }
    }
  });

  it('gives each HTTP function one invoke permission, for any route of the API, and none per route', () => {
    const permissions = resourcesOf(prod, 'AWS::Lambda::Permission').filter(
      ([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com',
    );
    expect(permissions).toHaveLength(httpGroups.length);
    const api = { Ref: prod.logicalId(prod.stack.api.httpApi) };
    for (const group of httpGroups) {
      const fn = { 'Fn::GetAtt': [prod.logicalId(prod.stack.functions.get(group.name)), 'Arn'] };
      const own = permissions.filter(
        ([, p]) => JSON.stringify(p.Properties.FunctionName) === JSON.stringify(fn),
      );
      expect(own).toHaveLength(1);
      expect(own[0][1].Properties.SourceArn).toEqual({
        'Fn::Join': ['', ['arn:aws:execute-api:sa-east-1:', { Ref: 'AWS::AccountId' }, ':', api, '/*']],
      });
    }
  });
});

describe('logs without secrets', () => {
  it('writes API access logs with the route template and no path, query, header or Referer', () => {
    prod.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      AccessLogSettings: Match.objectLike({ Format: ACCESS_LOG_FORMAT }),
    });
    const variables = ACCESS_LOG_FORMAT.match(/\$[a-zA-Z.]+/g);
    expect(variables).toEqual([
      '$context.requestId',
      '$context.identity.sourceIp',
      '$context.requestTime',
      '$context.routeKey',
      '$context.status',
      '$context.responseLength',
      '$context.responseLatency',
      '$context.integrationErrorMessage',
    ]);
    expect(ACCESS_LOG_FORMAT).not.toMatch(/path|query|querystring|\$request|header|referer|uri/i);
  });

  it('has no CloudFront access log: its lines would hold the raw path and query', () => {
    expect(distributionConfig(prod).Logging).toBeUndefined();
    expect(resourcesOf(prod, 'AWS::Logs::DeliverySource')).toEqual([]);
  });

  it('logs the WAF with the path, the query, the Referer and the credentials redacted', () => {
    const waf = wafTemplate(prod);
    const [logging] = Object.values(waf.Resources as Record<string, any>).filter(
      (r) => r.Type === 'AWS::WAFv2::LoggingConfiguration',
    );
    expect(logging.Properties.RedactedFields).toEqual([
      { UriPath: {} },
      { QueryString: {} },
      ...REDACTED_HEADERS.map((name) => ({ SingleHeader: { Name: name } })),
    ]);
    expect(REDACTED_HEADERS).toEqual(expect.arrayContaining(['authorization', 'referer', 'x-api-key']));
    expect(JSON.stringify(logging.Properties.LogDestinationConfigs)).toContain('log-group:aws-waf-logs-');
  });
});

describe('one domain in front', () => {
  it('sends every path to the API, uncached, over HTTPS only, with the WAF of the us-east-1 stack', () => {
    const config = distributionConfig(prod);
    const api = config.Origins.find((o: any) => o.CustomOriginConfig);
    expect(api.DomainName).toEqual({
      'Fn::Join': [
        '',
        [
          { Ref: prod.logicalId(prod.stack.api.httpApi) },
          '.execute-api.sa-east-1.',
          { Ref: 'AWS::URLSuffix' },
        ],
      ],
    });
    expect(api.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    expect(config.DefaultCacheBehavior).toMatchObject({
      TargetOriginId: api.Id,
      ViewerProtocolPolicy: 'https-only',
      // Managed policies: CachingDisabled, and AllViewerExceptHostHeader (the query and CloudFront-Viewer-Address reach the API).
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
    });
    expect(config.DefaultCacheBehavior.AllowedMethods).toContain('POST');
    expect(config.WebACLId).toEqual({
      'Fn::GetStackOutput': {
        StackName: prod.waf.stackName,
        Region: 'us-east-1',
        OutputName: expect.any(String),
      },
    });
    const outputs = wafTemplate(prod).Outputs as Record<string, { Value: unknown }>;
    expect(outputs[config.WebACLId['Fn::GetStackOutput'].OutputName].Value).toEqual({
      'Fn::GetAtt': [prod.waf.getLogicalId(prod.waf.webAcl), 'Arn'],
    });
  });

  it('serves the dashboard from its private bucket, through origin access control, with the SPA fallback', () => {
    const config = distributionConfig(prod);
    const bucket = prod.logicalId(prod.stack.edge.dashboardBucket);
    const s3 = config.Origins.find((o: any) => o.S3OriginConfig);
    expect(s3.DomainName).toEqual({ 'Fn::GetAtt': [bucket, 'RegionalDomainName'] });
    expect(s3.OriginAccessControlId).toBeDefined();
    expect(config.CacheBehaviors.map((b: any) => b.PathPattern)).toEqual([
      DASHBOARD_PATH,
      `${DASHBOARD_PATH}/*`,
    ]);
    for (const behavior of config.CacheBehaviors) {
      expect(behavior).toMatchObject({ TargetOriginId: s3.Id, AllowedMethods: ['GET', 'HEAD'] });
      expect(behavior.FunctionAssociations).toEqual([
        {
          EventType: 'viewer-request',
          FunctionARN: expect.objectContaining({ 'Fn::GetAtt': expect.any(Array) }),
        },
      ]);
    }
    // A distribution-wide error page would rewrite the API's own 403s and 404s.
    expect(config.CustomErrorResponses).toBeUndefined();
    prod.template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    const [[, policy]] = resourcesOf(prod, 'AWS::S3::BucketPolicy');
    const reads = policy.Properties.PolicyDocument.Statement.filter((st: any) => st.Effect === 'Allow');
    expect(reads).toEqual([
      expect.objectContaining({
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: 's3:GetObject',
        Condition: { StringEquals: { 'AWS:SourceArn': expect.anything() } },
      }),
    ]);
  });

  it('answers client-side dashboard routes with index.html and files with themselves', () => {
    const handler = new Function(`${SPA_FALLBACK_CODE}; return handler;`)() as (e: unknown) => {
      uri: string;
    };
    const uriOf = (uri: string) => handler({ request: { uri } }).uri;
    expect(uriOf('/dashboard')).toBe('/dashboard/index.html');
    expect(uriOf('/dashboard/')).toBe('/dashboard/index.html');
    expect(uriOf('/dashboard/sales/42')).toBe('/dashboard/index.html');
    expect(uriOf('/dashboard/assets/app-1a2b.js')).toBe('/dashboard/assets/app-1a2b.js');
  });

  it('adds HSTS, the pages’ CSP (an answer’s own CSP wins) and no Referer to every answer', () => {
    const policies = resourcesOf(prod, 'AWS::CloudFront::ResponseHeadersPolicy').map(
      ([, p]) => p.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig,
    );
    expect(policies).toHaveLength(2);
    for (const headers of policies) {
      expect(headers.StrictTransportSecurity).toEqual({
        AccessControlMaxAgeSec: HSTS_MAX_AGE.toSeconds(),
        IncludeSubdomains: true,
        Override: true,
      });
      expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: 'no-referrer', Override: true });
      expect(headers.ContentSecurityPolicy.Override).toBe(false);
    }
    expect(policies.map((h) => h.ContentSecurityPolicy.ContentSecurityPolicy)).toContain(PAGE_CSP);
  });

  it('has a web ACL with the AWS common and known-bad-inputs rules and per-IP rate rules', () => {
    const waf = wafTemplate(prod);
    const [acl] = Object.values(waf.Resources as Record<string, any>).filter(
      (r) => r.Type === 'AWS::WAFv2::WebACL',
    );
    expect(acl.Properties.Scope).toBe('CLOUDFRONT');
    const rules = acl.Properties.Rules as any[];
    expect(
      rules
        .filter((r) => r.Statement.ManagedRuleGroupStatement)
        .map((r) => r.Statement.ManagedRuleGroupStatement),
    ).toEqual(MANAGED_RULE_GROUPS.map((Name) => ({ VendorName: 'AWS', Name })));
    const rate = Object.fromEntries(
      rules
        .filter((r) => r.Statement.RateBasedStatement)
        .map((r) => [r.Name, r.Statement.RateBasedStatement]),
    );
    expect(rate.PublicRoutesPerIp).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: STAGES.prod.publicRateLimit,
    });
    expect(rate.EveryRoutePerIp).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: STAGES.prod.globalRateLimit,
    });
    const [paths, uncredentialed] = rate.PublicRoutesPerIp.ScopeDownStatement.AndStatement.Statements;
    expect(uncredentialed.NotStatement.Statement.SizeConstraintStatement.FieldToMatch).toEqual({
      SingleHeader: { Name: 'authorization' },
    });
    const scoped = paths.OrStatement.Statements.map((st: any) => ({
      path: st.ByteMatchStatement.SearchString,
      constraint: st.ByteMatchStatement.PositionalConstraint,
    }));
    expect(scoped).toEqual(publicPathMatches(httpGroups));
  });

  it('scopes the public rate rule to every route anyone may call, and to no seller-only route', () => {
    const matches = publicPathMatches(httpGroups);
    const matched = (path: string) => isPublicPath(matches, path);
    for (const route of httpGroups.flatMap((g) => g.routes)) {
      const credentialed = route.auth.some((a) => a === 'apiKey' || a === 'jwt' || a === 'panel');
      if (!credentialed) expect(matched(route.path)).toBe(true);
    }
    expect(matched('/cobranca/abc')).toBe(true);
    expect(matched('/api/transactions/42')).toBe(false);
    expect(matched('/api/products')).toBe(false);
    expect(matched('/api/api-keys')).toBe(false);
  });
});

describe('stages', () => {
  it('names the stacks after the stage, the WAF stack in us-east-1', () => {
    expect(prod.stack.stackName).toBe('PaymentService-prod');
    expect(dev.stack.stackName).toBe('PaymentService-dev');
    expect(dev.waf.region).toBe('us-east-1');
    expect(() => stageOf(new App({ context: { stage: 'staging' } }))).toThrow(
      /stage must be one of dev, prod/,
    );
    expect(stageOf(new App()).name).toBe('dev');
  });

  it('keeps the prod table, pool and key, and lets a dev stage go with its stack', () => {
    prod.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
    });
    dev.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
    dev.template.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Delete' });
    prod.template.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Retain' });
  });

  it('sets log retention and level, and the Asaas URLs, per stage: dev never reaches Asaas production', () => {
    expect(fnVars(prod, 'transactions')[ENV.logLevel]).toBe('info');
    expect(fnVars(dev, 'transactions')[ENV.logLevel]).toBe('debug');
    expect(fnVars(prod, 'transactions')[ENV.asaasProductionUrl]).toBe(ASAAS_BASE_URLS.production);
    expect(fnVars(dev, 'transactions')[ENV.asaasProductionUrl]).toBe(ASAAS_BASE_URLS.sandbox);
    const retention = (s: Synthesized) =>
      new Set(resourcesOf(s, 'AWS::Logs::LogGroup').map(([, l]) => l.Properties.RetentionInDays));
    expect(retention(prod)).toEqual(new Set([30, 90]));
    expect(retention(dev)).toEqual(new Set([7]));
  });

  it('answers on the custom domain, with its certificate, when one is given', () => {
    const config = distributionConfig(dev);
    expect(config.Aliases).toEqual(['pagamentos.loja.com.br']);
    expect(config.ViewerCertificate).toMatchObject({
      AcmCertificateArn: CERTIFICATE,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(fnVars(dev, 'health')[ENV.publicBaseUrl]).toBe('https://pagamentos.loja.com.br');
    const bad = (context: Record<string, string>) => () => customDomainOf(new App({ context }));
    expect(bad({ domainName: 'pagamentos.loja.com.br' })).toThrow(/come together/);
    expect(
      bad({
        domainName: 'pagamentos.loja.com.br',
        certificateArn: CERTIFICATE.replace('us-east-1', 'sa-east-1'),
      }),
    ).toThrow(/us-east-1/);
  });

  it('tells the operator what to do next in its outputs', () => {
    const outputs = prod.template.toJSON().Outputs as Record<string, { Description?: string }>;
    for (const name of [
      'Url',
      'DistributionDomain',
      'DashboardBucketName',
      'UserPoolId',
      'AlarmTopicArn',
      'TableName',
    ]) {
      expect(outputs[name]?.Description, name).toMatch(/\w/);
    }
    expect(outputs.AlarmTopicArn.Description).toMatch(/Confirm/);
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions or CloudFormation validation finding in either stage', () => {
    expect(prod.findings).toEqual([]);
    expect(dev.findings).toEqual([]);
  });
});
