import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { PAGE_CSP } from '#shared/http/page-replies';
import type { CustomDomain, StageSettings } from '../stages';

/** The dashboard's static files are served under this path of the one domain. */
export const DASHBOARD_PATH = '/dashboard';

/** Two years: the HSTS max-age browsers' preload lists ask for. */
export const HSTS_MAX_AGE = Duration.days(730);

/**
 * The dashboard's CSP: the pages' one, plus Cognito's endpoint for the sign-in calls the browser
 * makes itself.
 */
export const dashboardCspOf = (region: string) =>
  PAGE_CSP.replace("connect-src 'self'", `connect-src 'self' https://cognito-idp.${region}.amazonaws.com`);

/**
 * SPA fallback, in the viewer-request function of the dashboard's behaviours: a path without a
 * file extension (a client-side route such as /dashboard/sales/42) is answered with the app's
 * index.html; files keep their own path. A distribution-wide custom error response would do the
 * same for the API's 403s and 404s, which must reach the caller as they are.
 */
export const SPA_FALLBACK_CODE = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (request.uri === '${DASHBOARD_PATH}' || last.indexOf('.') === -1) {
    request.uri = '${DASHBOARD_PATH}/index.html';
  }
  return request;
}`;

export interface EdgeProps {
  /** The HTTP API's host name (`<id>.execute-api.<region>.amazonaws.com`). */
  apiDomain: string;
  stage: StageSettings;
  domain?: CustomDomain;
  /** The CLOUDFRONT-scope web ACL (made in us-east-1 by the WAF stack). */
  webAclArn: string;
}

/**
 * The one public domain: CloudFront in front of the HTTP API (every path but the dashboard's), the
 * hosted pages (they are API routes) and the dashboard's static files (S3, read through origin
 * access control), with the WAF web ACL, HSTS and the pages' CSP on every answer. Nothing is
 * cached on the API: every answer is per buyer or per seller.
 */
export class Edge extends Construct {
  readonly distribution: Distribution;
  readonly dashboardBucket: Bucket;
  /** `https://` and the custom domain, or the distribution's own domain: the service's public base URL. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: EdgeProps) {
    super(scope, id);
    const region = Stack.of(this).region;

    this.dashboardBucket = new Bucket(this, 'DashboardBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      removalPolicy: props.stage.removalPolicy,
      autoDeleteObjects: false,
    });
    Validations.of(this.dashboardBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'It holds only the public static build of the dashboard, read by CloudFront alone; its deploys are in CloudTrail. Access logs would record nothing a seller did.',
    });

    const securityHeaders = (id: string, csp: string) =>
      new ResponseHeadersPolicy(this, id, {
        comment: `HSTS, ${id === 'DashboardHeaders' ? 'the dashboard' : 'the pages'}’ CSP, no referrer`,
        securityHeadersBehavior: {
          strictTransportSecurity: {
            accessControlMaxAge: HSTS_MAX_AGE,
            includeSubdomains: true,
            override: true,
          },
          // An answer that sets its own CSP (a page, the API reference) keeps it.
          contentSecurityPolicy: { contentSecurityPolicy: csp, override: false },
          contentTypeOptions: { override: true },
          frameOptions: { frameOption: HeadersFrameOption.DENY, override: false },
          // Pay-link and portal URLs carry tokens: a browser must never send them on as a Referer.
          referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        },
      });
    const apiHeaders = securityHeaders('ApiHeaders', PAGE_CSP);
    const dashboardHeaders = securityHeaders('DashboardHeaders', dashboardCspOf(region));

    const spaFallback = new EdgeFunction(this, 'DashboardFallback', {
      comment: 'Answers the dashboard’s client-side routes with its index.html',
      code: FunctionCode.fromInline(SPA_FALLBACK_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });
    const dashboardBehavior = {
      origin: S3BucketOrigin.withOriginAccessControl(this.dashboardBucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: dashboardHeaders,
      functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
    };

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Payment service (${props.stage.name}): API, hosted pages and dashboard`,
      defaultBehavior: {
        origin: new HttpOrigin(props.apiDomain, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY }),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        // Every viewer header but Host (API Gateway routes by its own), the query string, and the
        // CloudFront headers, CloudFront-Viewer-Address among them: the functions' per-IP counters
        // read the viewer's address there (shared/http/client-ip.ts).
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy: apiHeaders,
      },
      additionalBehaviors: {
        [DASHBOARD_PATH]: dashboardBehavior,
        [`${DASHBOARD_PATH}/*`]: dashboardBehavior,
      },
      domainNames: props.domain ? [props.domain.domainName] : undefined,
      certificate: props.domain
        ? Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn)
        : undefined,
      minimumProtocolVersion: props.domain ? SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      httpVersion: HttpVersion.HTTP2_AND_3,
      // Brazilian buyers: South America's edge locations are only in the "all" class.
      priceClass: PriceClass.PRICE_CLASS_ALL,
      webAclId: props.webAclArn,
      // No CloudFront access logs: their lines hold the raw path and query, where pay-link, portal and
      // boleto tokens travel. Requests are logged by API Gateway (route templates, no query) and by
      // the WAF (path, query and Referer redacted).
      enableLogging: false,
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR3',
      reason:
        'CloudFront standard logs record the raw URI and query string, where pay-link, portal and boleto tokens travel. Requests are logged by API Gateway (route template, no query) and by the WAF (path, query and Referer redacted).',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason:
        'Buyers and sellers are in Brazil but may pay from abroad; the WAF rate rules limit abuse instead.',
    });
    if (!props.domain) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain (-c domainName, -c certificateArn) the distribution serves the *.cloudfront.net certificate, whose TLS floor CloudFront sets; with one it is TLSv1.2_2021.',
      });
    }
    this.url = `https://${props.domain ? props.domain.domainName : this.distribution.distributionDomainName}`;
  }
}
