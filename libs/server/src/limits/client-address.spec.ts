import { clientKey, clientKeys } from './client-address';

describe(clientKey.name, () => {
  it('counts an IPv4 client, and the same client seen as IPv4-mapped IPv6, under its address', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one client, however it is written', () => {
    const key = clientKey('2001:db8:aa:1::1');
    expect(key).toBe('2001:db8:aa:1::/64');
    expect(clientKey('2001:0db8:00aa:0001:ffff:ffff:ffff:fffe')).toBe(key);
    expect(clientKey('2001:db8:aa:1:0:0:0:9%eth0')).toBe(key);
    expect(clientKey('2001:db8:aa:2::1')).not.toBe(key);
  });

  it('expands `::` at either end and an embedded IPv4 tail', () => {
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::')).toBe('fe80:0:0:0::/64');
    expect(clientKey('2001:db8:1:2:3:4:192.0.2.1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('64:ff9b:1:2::192.0.2.1')).toBe('64:ff9b:1:2::/64');
  });

  it('puts an address it cannot read (none, or not an IP) under one key: never a new entry per request', () => {
    expect(clientKey(undefined)).toBe('unknown');
    expect(clientKey('')).toBe('unknown');
    expect(clientKey('not-an-ip')).toBe('unknown');
  });
});

describe(clientKeys.name, () => {
  it('counts an IPv4 client under its address alone', () => {
    expect(clientKeys('203.0.113.7')).toEqual(['203.0.113.7']);
    expect(clientKeys('::ffff:203.0.113.7')).toEqual(['203.0.113.7']);
  });

  it('counts an IPv6 client under its /64 and its /48: two /64s of one site share the /48', () => {
    expect(clientKeys('2001:db8:aa:1::1')).toEqual(['2001:db8:aa:1::/64', '2001:db8:aa::/48']);
    expect(clientKeys('2001:db8:aa:ffff::9')[1]).toBe('2001:db8:aa::/48');
    expect(clientKeys('2001:db8:aa:ffff::9')[0]).not.toBe(clientKeys('2001:db8:aa:1::1')[0]);
    expect(clientKeys('2001:db8:ab:1::1')[1]).not.toBe('2001:db8:aa::/48');
    expect(clientKeys('2001:0db8:00aa::')).toEqual(['2001:db8:aa:0::/64', '2001:db8:aa::/48']);
  });

  it('puts an address it cannot read under one key', () => {
    expect(clientKeys('not-an-ip')).toEqual(['unknown']);
  });
});
