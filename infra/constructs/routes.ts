import { Stack, Validations } from 'aws-cdk-lib';
import {
  type HttpApi,
  HttpIntegrationType,
  HttpMethod,
  HttpRoute,
  HttpRouteIntegration,
  type HttpRouteIntegrationConfig,
  HttpRouteKey,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { CfnPermission, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { RouteGroup } from '#shared/http/types';
import { NO_AUTHORIZER } from './api';
import { constructIdOf } from './functions';

/**
 * A Lambda proxy integration (payload 2.0) that adds no permission of its own: CDK's
 * HttpLambdaIntegration adds one per route, which made the Lambda permissions a third of the
 * stack. ApiRoutes gives each function one permission for the whole API instead.
 */
class LambdaProxy extends HttpRouteIntegration {
  constructor(
    id: string,
    private readonly handler: IFunction,
  ) {
    super(id);
  }

  bind(): HttpRouteIntegrationConfig {
    return {
      type: HttpIntegrationType.AWS_PROXY,
      uri: this.handler.functionArn,
      payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
    };
  }
}

export interface ApiRoutesProps {
  httpApi: HttpApi;
  groups: readonly RouteGroup[];
  functionOf: (name: string) => IFunction;
  /** The group whose function answers `$default` (a request no route matches). */
  defaultGroup: string;
}

/**
 * One API route per route-table row, each integrated with its group's function (one integration
 * per group), the `$default` route to `defaultGroup`'s function, so an unknown route is answered
 * by the same error mapper (a 404 with the error body) instead of API Gateway's own
 * `{"message":"Not Found"}`, and one invoke permission per function, for any route of this API.
 */
export class ApiRoutes extends Construct {
  /** Each group's invoke permission, by group name. */
  readonly permissions = new Map<string, CfnPermission>();

  constructor(scope: Construct, id: string, props: ApiRoutesProps) {
    super(scope, id);
    const { httpApi } = props;
    Validations.of(this).acknowledge(NO_AUTHORIZER);
    const integrations = new Map<string, LambdaProxy>();
    for (const group of props.groups) {
      const fn = props.functionOf(group.name);
      const integration = new LambdaProxy(`${group.name}-integration`, fn);
      integrations.set(group.name, integration);
      this.permissions.set(
        group.name,
        new CfnPermission(this, `${constructIdOf(group.name)}Invoke`, {
          action: 'lambda:InvokeFunction',
          functionName: fn.functionArn,
          principal: 'apigateway.amazonaws.com',
          // Any stage and route of this API: `<api id>/<stage>/<method>/<path>`, `$default` included.
          sourceArn: Stack.of(this).formatArn({
            service: 'execute-api',
            resource: httpApi.apiId,
            resourceName: '*',
          }),
        }),
      );
      for (const route of group.routes) {
        new HttpRoute(this, `${route.method}${route.path.replaceAll('/', '_')}`, {
          httpApi,
          routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
          integration,
        });
      }
    }
    new HttpRoute(this, 'DefaultRoute', {
      httpApi,
      routeKey: HttpRouteKey.DEFAULT,
      integration: integrations.get(props.defaultGroup) as LambdaProxy,
    });
  }
}
