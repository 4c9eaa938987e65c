import { clientId } from '../../../src/delivery/health/client-identity';

// How telemetry tells one client from another without keeping its address.

describe('clientId', () => {
  it('is the same for one client, different for another and under another secret, and holds no address', () => {
    const secret = 'a-site-secret-of-some-length';
    const one = clientId('2001:db8:85a3:12::1', secret);
    expect(clientId('2001:db8:85a3:34::ffff', secret)).toBe(one);
    expect(clientId('2001:db8:85a3:100::1', secret)).not.toBe(one);
    expect(clientId('2001:db8:85a3:12::1', 'another-site-secret-entirely')).not.toBe(one);
    expect(clientId('203.0.113.7', secret)).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(clientId('203.0.113.7', secret)).not.toBe(clientId('203.0.113.8', secret));
  });
});
