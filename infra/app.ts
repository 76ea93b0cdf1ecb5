import type { App } from 'aws-cdk-lib';
import { WafStack } from './constructs/waf';
import { httpGroups } from './routes';
import { PaymentServiceStack } from './stack';
import { customDomainOf, stageOf } from './stages';

/** CloudFront reads web ACLs and certificates from this region only. */
export const EDGE_REGION = 'us-east-1';

/** Where the service goes when neither `-c region=…` nor the CLI's default region says: São Paulo. */
export const DEFAULT_REGION = 'sa-east-1';

export interface ServiceStacks {
  service: PaymentServiceStack;
  waf: WafStack;
}

/**
 * The stacks of one stage (`-c stage=dev|prod`): the service in its region, and its web ACL in
 * us-east-1, whose ARN the service reads across regions. Both carry the stage in their names, so
 * dev and prod live side by side in one account.
 */
export function addServiceStacks(app: App, env: { account?: string; region?: string } = {}): ServiceStacks {
  const stage = stageOf(app);
  const region = (app.node.tryGetContext('region') as string | undefined) ?? env.region ?? DEFAULT_REGION;
  const waf = new WafStack(app, `PaymentServiceWaf-${stage.name}`, {
    env: { account: env.account, region: EDGE_REGION },
    crossRegionReferences: true,
    description: `Payment service (${stage.name}): the WAF web ACL in front of CloudFront`,
    stage,
    groups: httpGroups,
  });
  const service = new PaymentServiceStack(app, `PaymentService-${stage.name}`, {
    env: { account: env.account, region },
    crossRegionReferences: true,
    description: `Payment service (${stage.name}): HTTP API, Lambda, DynamoDB single table, Scheduler, SQS, Cognito, CloudFront`,
    stage,
    domain: customDomainOf(app),
    webAclArn: waf.webAcl.attrArn,
  });
  return { service, waf };
}
