import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ASAAS_BASE_URLS } from '#shared/adapters/asaas/client';

export const STAGE_NAMES = ['dev', 'prod'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** What differs between the stages (`cdk deploy -c stage=dev|prod`); everything else is the same. */
export interface StageSettings {
  name: StageName;
  /** What CloudFormation does with the table, the user pool, the keys and the dashboard bucket when they leave the stack. */
  removalPolicy: RemovalPolicy;
  /** The table and the user pool refuse deletion (prod), or may be torn down with the stack (dev). */
  deletionProtection: boolean;
  /** Function logs. */
  functionLogRetention: RetentionDays;
  /** API Gateway access logs and WAF logs: the audit trail of who called what. */
  accessLogRetention: RetentionDays;
  logLevel: 'debug' | 'info';
  /** Requests per IP per five minutes on the public routes (pages, checkout, pay links, portal) before the WAF blocks. */
  publicRateLimit: number;
  /** Requests per IP per five minutes on the whole domain. */
  globalRateLimit: number;
  /**
   * The Asaas base URLs. A dev stage talks to the Asaas sandbox for both, so no dev deploy can ever
   * move real money, whatever a seller connects there.
   */
  asaas: { sandbox: string; production: string };
}

export const STAGES: Record<StageName, StageSettings> = {
  dev: {
    name: 'dev',
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    functionLogRetention: RetentionDays.ONE_WEEK,
    accessLogRetention: RetentionDays.ONE_WEEK,
    logLevel: 'debug',
    publicRateLimit: 300,
    globalRateLimit: 2000,
    asaas: { sandbox: ASAAS_BASE_URLS.sandbox, production: ASAAS_BASE_URLS.sandbox },
  },
  prod: {
    name: 'prod',
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    functionLogRetention: RetentionDays.ONE_MONTH,
    accessLogRetention: RetentionDays.THREE_MONTHS,
    logLevel: 'info',
    publicRateLimit: 600,
    globalRateLimit: 6000,
    asaas: { sandbox: ASAAS_BASE_URLS.sandbox, production: ASAAS_BASE_URLS.production },
  },
};

/** The public domain in front of everything, with its ACM certificate (us-east-1, as CloudFront requires). */
export interface CustomDomain {
  domainName: string;
  certificateArn: string;
}

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const US_EAST_1_CERTIFICATE = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]+$/;

/** The stage named by `-c stage=…` (dev when none is given: an unqualified deploy never lands in prod). */
export function stageOf(scope: Construct): StageSettings {
  const name = String(scope.node.tryGetContext('stage') ?? 'dev');
  if (!(STAGE_NAMES as readonly string[]).includes(name))
    throw new Error(`stage must be one of ${STAGE_NAMES.join(', ')} (cdk deploy -c stage=…), not "${name}"`);
  return STAGES[name as StageName];
}

/**
 * `-c domainName=pagamentos.loja.com.br -c certificateArn=arn:aws:acm:us-east-1:…`, both or
 * neither: without them the service answers on the CloudFront domain (*.cloudfront.net).
 */
export function customDomainOf(scope: Construct): CustomDomain | undefined {
  const domainName = scope.node.tryGetContext('domainName') as string | undefined;
  const certificateArn = scope.node.tryGetContext('certificateArn') as string | undefined;
  if (!domainName && !certificateArn) return undefined;
  if (!domainName || !certificateArn)
    throw new Error('domainName and certificateArn come together (-c domainName=… -c certificateArn=…)');
  if (!DOMAIN.test(domainName)) throw new Error(`domainName must be a domain name, not "${domainName}"`);
  if (!US_EAST_1_CERTIFICATE.test(certificateArn))
    throw new Error(
      'certificateArn must be an ACM certificate ARN in us-east-1 (CloudFront reads only those)',
    );
  return { domainName, certificateArn };
}

/** `-c alarmEmail=ops@loja.com.br`: the alarm topic's subscriber, the default of the AlarmEmail parameter. */
export function alarmEmailOf(scope: Construct): string | undefined {
  return scope.node.tryGetContext('alarmEmail') as string | undefined;
}
