import type { UrlPolicy } from '#shared/domain/ports';

/**
 * A resolver backed by a table of host → addresses; a host missing from it does not resolve.
 * Tests change `hosts` to make a name start pointing somewhere else (DNS rebinding).
 */
export class FakeUrlPolicy implements UrlPolicy {
  readonly allowLocalHttp: boolean;
  readonly hosts: Map<string, string[]>;
  readonly lookups: string[] = [];
  constructor(hosts: Record<string, string[]>, options: { allowLocalHttp?: boolean } = {}) {
    this.hosts = new Map(Object.entries(hosts));
    this.allowLocalHttp = options.allowLocalHttp ?? false;
  }
  resolve = async (host: string): Promise<string[]> => {
    this.lookups.push(host);
    const addresses = this.hosts.get(host);
    if (!addresses) throw new Error(`ENOTFOUND ${host}`);
    return addresses;
  };
}
