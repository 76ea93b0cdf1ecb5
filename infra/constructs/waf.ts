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

/** How the public rate rule matches a path: a whole fixed path, or the part before its first parameter. */
export interface PathMatch {
  path: string;
  constraint: 'EXACTLY' | 'STARTS_WITH';
}

/**
 * The paths of the routes anyone may call (no credential, or a token in the URL: the hosted pages,
 * the public checkout and pay-link calls, the portal and customer area, health and docs): a fixed
 * path exactly, a path with parameters by the prefix before its first one, without a match another
 * already covers. The scope of the per-IP rule on public routes.
 */
export function publicPathMatches(groups: readonly RouteGroup[]): PathMatch[] {
  const credentialed = new Set(['apiKey', 'jwt', 'panel']);
  const all = groups
    .flatMap((g) => g.routes)
    .filter((r) => !r.auth.some((scheme) => credentialed.has(scheme)))
    .map((r): PathMatch => {
      const cut = r.path.indexOf('{');
      return cut === -1
        ? { path: r.path, constraint: 'EXACTLY' }
        : { path: r.path.slice(0, cut), constraint: 'STARTS_WITH' };
    });
  const unique = [...new Map(all.map((m) => [`${m.constraint} ${m.path}`, m])).values()].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.constraint.localeCompare(b.constraint),
  );
  const covers = (by: PathMatch, m: PathMatch) =>
    by !== m &&
    (by.constraint === 'STARTS_WITH'
      ? m.path.startsWith(by.path) && (m.path !== by.path || m.constraint === 'EXACTLY')
      : false);
  return unique.filter((m) => !unique.some((by) => covers(by, m)));
}

/** Whether a request path falls under the public rate rule. */
export const isPublicPath = (matches: readonly PathMatch[], path: string) =>
  matches.some((m) => (m.constraint === 'EXACTLY' ? path === m.path : path.startsWith(m.path)));

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
    const matches = publicPathMatches(props.groups);
    const byteMatch = (m: PathMatch) => ({
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: m.constraint,
        searchString: m.path,
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
              // A public path, called without credentials: a seller's server creating sales with its
              // API key (POST /api/transactions is public too) counts only against the rule below. A
              // forged Authorization header only earns 401s, counted by the functions per IP.
              scopeDownStatement: {
                andStatement: {
                  statements: [
                    { orStatement: { statements: matches.map(byteMatch) } },
                    {
                      notStatement: {
                        statement: {
                          sizeConstraintStatement: {
                            fieldToMatch: { singleHeader: { Name: 'authorization' } },
                            comparisonOperator: 'GT',
                            size: 0,
                            textTransformations: [{ priority: 0, type: 'NONE' }],
                          },
                        },
                      },
                    },
                  ],
                },
              },
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
