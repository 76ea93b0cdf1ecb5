import { ArnFormat, Stack, type StackProps } from 'aws-cdk-lib';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import type { RouteGroup } from '#shared/http/types';
import type { StageSettings } from '../stages';

/** The evaluation window of both rate-based rules: AWS counts requests per IP over five minutes. */
export const RATE_WINDOW_SECONDS = 300;

/** AWS managed rule groups in front of everything: the common rule set, then known bad inputs. */
export const MANAGED_RULE_GROUPS = ['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet'];

/**
 * Request parts the WAF log never keeps: the path and query (pay-link, portal and boleto tokens
 * travel there), the Referer (the page URL, with its token), and the credentials.
 */
export const REDACTED_HEADERS = ['authorization', 'x-api-key', 'cookie', 'referer'];

/**
 * The paths of the routes anyone may call (no credential, or a token in the URL: the hosted pages,
 * the public checkout and pay-link calls, the portal and customer area), reduced to the shortest
 * prefixes that cover them: the scope of the per-IP rule on public routes.
 */
export function publicPathPrefixes(groups: readonly RouteGroup[]): string[] {
  const credentialed = new Set(['apiKey', 'jwt', 'panel']);
  const prefixes = groups
    .flatMap((g) => g.routes)
    .filter((r) => !r.auth.some((scheme) => credentialed.has(scheme)))
    .map((r) => {
      const cut = r.path.indexOf('{');
      return cut === -1 ? r.path : r.path.slice(0, cut);
    });
  const sorted = [...new Set(prefixes)].sort();
  return sorted.filter((p, i) => !sorted.slice(0, i).some((q) => p.startsWith(q)));
}

const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

export interface WafStackProps extends StackProps {
  stage: StageSettings;
  groups: readonly RouteGroup[];
}

/**
 * The web ACL in front of CloudFront. A CLOUDFRONT-scope ACL can only be made in us-east-1, so it
 * has its own small stack there; the service's stack reads its ARN across regions.
 */
export class WafStack extends Stack {
  readonly webAcl: CfnWebACL;
  readonly logs: LogGroup;

  constructor(scope: Construct, id: string, props: WafStackProps) {
    super(scope, id, props);
    const { stage } = props;
    const prefixes = publicPathPrefixes(props.groups);
    const startsWith = (prefix: string) => ({
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'STARTS_WITH',
        searchString: prefix,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    });
    const managed = MANAGED_RULE_GROUPS.map((name, i) => ({
      name,
      priority: i,
      overrideAction: { none: {} },
      statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
      visibilityConfig: visibility(name),
    }));
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      description: `Payment service ${stage.name} - AWS managed rules, per-IP rate limits`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`payment-service-${stage.name}`),
      rules: [
        ...managed,
        {
          name: 'PublicRoutesPerIp',
          priority: managed.length,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit: stage.publicRateLimit,
              evaluationWindowSec: RATE_WINDOW_SECONDS,
              aggregateKeyType: 'IP',
              scopeDownStatement:
                prefixes.length === 1
                  ? startsWith(prefixes[0])
                  : { orStatement: { statements: prefixes.map(startsWith) } },
            },
          },
          visibilityConfig: visibility('PublicRoutesPerIp'),
        },
        {
          name: 'EveryRoutePerIp',
          priority: managed.length + 1,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit: stage.globalRateLimit,
              evaluationWindowSec: RATE_WINDOW_SECONDS,
              aggregateKeyType: 'IP',
            },
          },
          visibilityConfig: visibility('EveryRoutePerIp'),
        },
      ],
    });

    // WAF writes only to log groups named aws-waf-logs-…, addressed by an ARN without the `:*`.
    const logGroupName = `aws-waf-logs-payment-service-${stage.name}`;
    this.logs = new LogGroup(this, 'Logs', {
      logGroupName,
      retention: stage.accessLogRetention,
      removalPolicy: stage.removalPolicy,
    });
    const logsArn = this.formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: logGroupName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const logging = new CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      logDestinationConfigs: [logsArn],
      redactedFields: [
        { uriPath: {} },
        { queryString: {} },
        ...REDACTED_HEADERS.map((name) => ({ singleHeader: { Name: name } })),
      ],
    });
    logging.node.addDependency(this.logs);
  }
}
