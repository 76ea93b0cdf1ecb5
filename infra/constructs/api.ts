import { Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, type HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/**
 * One JSON line per request. status and latency are written unquoted, as numbers: the dashboard's
 * metric filters compare status numerically and take latency as the metric value. The route is
 * its template (`GET /cobranca/{payToken}`), never the raw path, and the query string, the headers
 * and the Referer are not written: pay-link, portal and boleto tokens travel in paths and queries.
 */
export const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latency: '$context.responseLatency',
  integrationError: '$context.integrationErrorMessage',
}).replace(/"(\$context\.(status|responseLatency))"/g, '$1');

/** Why no route has an API Gateway authorizer (cdk-nag AwsSolutions-APIG4), on the API and its routes. */
export const NO_AUTHORIZER = {
  id: 'AwsSolutions-APIG4',
  reason:
    'Authentication runs inside the functions (one middleware), not in an API Gateway authorizer: ' +
    'routes accept several schemes (API key or Cognito JWT, portal token in the query, magic-link ' +
    'JWT, public routes limited per IP) and the rate limit must count every request, including ' +
    'rejected ones. Cognito ID tokens are verified there against the pool JWKS.',
};

/**
 * The HTTP API (payload format 2.0) and its access-logged default stage. Its routes are made in
 * their own nested stack (infra/constructs/routes.ts); the public reach it through CloudFront.
 */
export class PublicApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;
  /** The API's own host name: CloudFront's origin (infra/constructs/edge.ts). */
  readonly domain: string;

  constructor(scope: Construct, id: string, props: { logRetention: RetentionDays }) {
    super(scope, id);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Payment service public API',
      // The default stage is added below: the L2 default stage cannot carry access log settings.
      createDefaultStage: false,
    });
    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
    });
    const stack = Stack.of(this);
    this.domain = `${this.httpApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;

    Validations.of(this.httpApi).acknowledge(NO_AUTHORIZER);
  }
}
