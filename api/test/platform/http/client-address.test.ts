import { clientAddress } from '../../../src/platform/http/client-address';

// How one client is told from another, whatever address of its network it sends from.

describe('clientAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:85a3:12::8a2e:370:7334', '2001:db8:85a3::/56'],
    ['2001:db8:85a3:ff:ffff:ffff:ffff:1', '2001:db8:85a3::/56'],
    ['2001:db8:85a3:100::1', '2001:db8:85a3:100::/56'],
  ])('names the client of %s as %s', (address, client) => {
    expect(clientAddress(address)).toBe(client);
  });
});
