import { BlockList, isIP } from 'node:net';
import type { UrlPolicy } from '#shared/domain/ports';

/**
 * Where webhooks may go. HTTPS only; a host that resolves to a loopback, private, link-local,
 * carrier-grade NAT, multicast or cloud metadata address is refused (SSRF), when the endpoint is
 * saved and again before every delivery, and the delivery connects only to the addresses that
 * check found (a second lookup could answer another address: DNS rebinding). The local runtime
 * alone accepts http://127.0.0.1 and http://localhost so that a developer can receive events on
 * the same machine.
 */
const blockedV4 = new BlockList();
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
  blockedV4.addSubnet(net, prefix, 'ipv4');
}
// A list of its own: BlockList checks an IPv4 address against IPv6 rules as ::ffff:a.b.c.d, so
// the mapped range below would block every IPv4 address in a shared list.
const blockedV6 = new BlockList();
// Every IPv6 range that carries an IPv4 address is refused whole, whatever the address inside:
// a real host's IPv4 address comes as IPv4, and unwrapping each notation is where a check slips.
for (const [net, prefix] of [
  // IPv4-compatible (deprecated), which holds :: and ::1 too.
  ['::', 96],
  // IPv4-mapped, in any notation (::ffff:127.0.0.1 is ::ffff:7f00:1).
  ['::ffff:0:0', 96],
  // IPv4-translated (SIIT).
  ['::ffff:0:0:0', 96],
  // NAT64, well-known and local-use prefixes.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  // Teredo and 6to4 tunnels.
  ['2001::', 32],
  ['2002::', 16],
  // Discard-only.
  ['100::', 64],
  // Unique local, link-local, site-local (deprecated), multicast.
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blockedV6.addSubnet(net, prefix, 'ipv6');
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockedV4.check(address, 'ipv4');
  if (family === 6) return blockedV6.check(address, 'ipv6');
  return true;
}

/** The loopback addresses the local runtime's exception connects to, by host name. */
const LOCAL_HOSTS = new Map<string, string[]>([
  ['127.0.0.1', ['127.0.0.1']],
  ['localhost', ['127.0.0.1', '::1']],
]);

/**
 * Where a delivery may go: the addresses the URL's host resolved to, every one of them checked,
 * or why the URL is refused.
 */
export type CheckedWebhookUrl = { addresses: string[]; problem?: undefined } | { problem: string };

/** Resolves the URL's host once and checks every address it answers. */
export async function resolveWebhookUrl(raw: string, policy: UrlPolicy): Promise<CheckedWebhookUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'url must be a valid URL' };
  }
  if (url.username || url.password) return { problem: 'url must not contain credentials' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const local = LOCAL_HOSTS.get(host);
  if (policy.allowLocalHttp && local && (url.protocol === 'http:' || url.protocol === 'https:')) {
    return { addresses: local };
  }
  if (url.protocol !== 'https:') return { problem: 'url must use HTTPS' };
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await policy.resolve(host);
    } catch {
      return { problem: `url host ${host} could not be resolved` };
    }
  }
  if (addresses.length === 0) return { problem: `url host ${host} could not be resolved` };
  if (addresses.some(isBlockedAddress))
    return { problem: 'url must not point to a private, loopback, link-local or metadata address' };
  return { addresses };
}

/** Returns why the URL is refused, or null when deliveries may go there. */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy): Promise<string | null> {
  return (await resolveWebhookUrl(raw, policy)).problem ?? null;
}
