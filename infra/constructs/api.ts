import { Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  type HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteGroup } from '#shared/http/types';

/**
 * One JSON line per request. status and latency are written unquoted, as numbers: the dashboard's
 * metric filters compare status numerically and take latency as the metric value.
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

/**
 * The HTTP API (payload format 2.0). Routes are explicit, one per row of the route tables: an
 * unknown path is answered by API Gateway itself and never wakes a function.
 */
export class PublicApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;
  /**
   * The API's base URL without a trailing slash (the local runtime's PUBLIC_BASE_URL has none).
   * Built from the API id alone, so functions can read it while the API integrates them.
   */
  readonly url: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Payment service public API',
      // The default stage is added below: the L2 default stage cannot carry access log settings.
      createDefaultStage: false,
    });
    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
    });
    const stack = Stack.of(this);
    this.url = `https://${this.httpApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;

    Validations.of(this.httpApi).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Authentication runs inside the functions (one middleware), not in an API Gateway authorizer: ' +
        'routes accept several schemes (API key or Cognito JWT, portal token in the query, magic-link ' +
        'JWT, public routes limited per IP) and the rate limit must count every request, including ' +
        'rejected ones. Cognito ID tokens are verified there against the pool JWKS.',
    });
  }

  /**
   * One API route per route-table row, each integrated with its group's function, and the
   * `$default` route to `defaultGroup`'s function, so an unknown route is answered by the same
   * error mapper (a 404 with the error body) instead of API Gateway's own `{"message":"Not Found"}`.
   */
  addGroupRoutes(groups: RouteGroup[], functionOf: (name: string) => IFunction, defaultGroup: string): void {
    const integrations = new Map<string, HttpLambdaIntegration>();
    for (const group of groups) {
      // One invoke permission per function for this API, not one per route: a permission per route
      // put the stack past CloudFormation's 500 resources (each route row costs a route and a permission).
      const integration = new HttpLambdaIntegration(`${group.name}-integration`, functionOf(group.name), {
        scopePermissionToRoute: false,
      });
      integrations.set(group.name, integration);
      for (const route of group.routes) {
        this.httpApi.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration });
      }
    }
    new HttpRoute(this.httpApi, 'DefaultRoute', {
      httpApi: this.httpApi,
      routeKey: HttpRouteKey.DEFAULT,
      integration: integrations.get(defaultGroup) as HttpLambdaIntegration,
    });
  }
}
