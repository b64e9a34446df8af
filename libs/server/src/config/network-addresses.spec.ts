import { lanUrls, startBanner } from './network-addresses';

describe('network addresses', () => {
  it('lists the external IPv4 addresses only', () => {
    const urls = lanUrls(3000, {
      lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true, netmask: '255.0.0.0', mac: '', cidr: null }],
      wlan0: [
        { address: '192.168.1.20', family: 'IPv4', internal: false, netmask: '255.255.255.0', mac: '', cidr: null },
        { address: 'fe80::1', family: 'IPv6', internal: false, netmask: 'ffff::', mac: '', cidr: null, scopeid: 1 },
      ],
    });
    expect(urls).toEqual(['http://192.168.1.20:3000']);
  });

  it('points hosts and players at the network address, and says so when there is none', () => {
    expect(startBanner(3000, ['http://192.168.1.20:3000'])).toContain('host a game:   http://192.168.1.20:3000/host');
    expect(startBanner(3000, [])).toMatch(/localhost:3000\/host.*phones need one/);
  });
});
