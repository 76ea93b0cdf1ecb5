import { describe, expect, it } from 'vitest';
import { clientIpOf, VIEWER_ADDRESS_HEADER } from '#shared/http/client-ip';

describe('the client IP behind CloudFront', () => {
  const of = (viewer: string | undefined) => clientIpOf({ [VIEWER_ADDRESS_HEADER]: viewer }, '130.176.1.1');

  it("takes the viewer's address from CloudFront-Viewer-Address, without the port", () => {
    expect(of('203.0.113.7:46532')).toBe('203.0.113.7');
    expect(of('2001:DB8::7:46532')).toBe('2001:db8::7');
  });

  it("falls back to API Gateway's source IP without the header, or with a malformed one", () => {
    expect(of(undefined)).toBe('130.176.1.1');
    expect(of('')).toBe('130.176.1.1');
    expect(of('203.0.113.7')).toBe('130.176.1.1');
    expect(of('evil<script>:80')).toBe('130.176.1.1');
  });
});
