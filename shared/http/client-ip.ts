/**
 * The header CloudFront adds with the viewer's address and port (the distribution's origin request
 * policy forwards it, infra/constructs/edge.ts). Behind CloudFront, API Gateway's sourceIp is an
 * edge server's address, shared by every buyer that edge serves: per-IP counters keyed on it would
 * limit them all together.
 */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6 = /^[0-9a-f:]+$/i;

/**
 * The caller's IP: CloudFront's viewer address without its port (`203.0.113.7:46532`,
 * `2001:db8::7:46532`), else API Gateway's source IP (a request that did not come through
 * CloudFront, and the local runtime). A malformed header is ignored rather than trusted.
 */
export function clientIpOf(headers: Record<string, string | undefined>, sourceIp: string): string {
  const viewer = headers[VIEWER_ADDRESS_HEADER]?.trim();
  if (!viewer) return sourceIp;
  const cut = viewer.lastIndexOf(':');
  const address = cut > 0 ? viewer.slice(0, cut) : '';
  return IPV4.test(address) || (address.includes(':') && IPV6.test(address))
    ? address.toLowerCase()
    : sourceIp;
}
