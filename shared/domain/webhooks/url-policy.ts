import { BlockList, isIP } from 'node:net';
import type { UrlPolicy } from '#shared/domain/ports';

/**
 * Where webhooks may go. HTTPS only; a host that resolves to a loopback, private, link-local,
 * carrier-grade NAT, multicast or cloud metadata address is refused (SSRF), when the endpoint is
 * saved and again before every delivery. The local runtime alone accepts http://127.0.0.1 and
 * http://localhost so that a developer can receive events on the same machine.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost']);

/** Returns why the URL is refused, or null when deliveries may go there. */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be a valid URL';
  }
  if (url.username || url.password) return 'url must not contain credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (
    policy.allowLocalHttp &&
    LOCAL_HOSTS.has(host) &&
    (url.protocol === 'http:' || url.protocol === 'https:')
  ) {
    return null;
  }
  if (url.protocol !== 'https:') return 'url must use HTTPS';
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await policy.resolve(host);
    } catch {
      return `url host ${host} could not be resolved`;
    }
  }
  if (addresses.length === 0) return `url host ${host} could not be resolved`;
  if (addresses.some(isBlockedAddress))
    return 'url must not point to a private, loopback, link-local or metadata address';
  return null;
}
