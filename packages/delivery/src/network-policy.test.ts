import { checkUrlDestination, createNetworkPolicy, parseAllowNetworks } from './network-policy';

const policy = createNetworkPolicy([]);

describe('network policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['169.254.0.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456:789a::1', 'unique_local'],
    ['fd00:ec2::254', 'unique_local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['::7f00:1', 'reserved'],
    // IPv4 addresses in IPv6 clothes keep the IPv4 verdict.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'link_local'],
    ['::ffff:0:10.1.2.3', 'private'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link_local'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['64:ff9b:1::1', 'reserved'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a00:1::1', 'private'],
    ['2002:a9fe:a9fe::', 'link_local'],
    // Not IP addresses at all: refused rather than guessed at.
    ['localhost', 'not_an_ip'],
    ['example.com', 'not_an_ip'],
    ['', 'not_an_ip'],
    ['2130706433', 'not_an_ip'],
    ['0x7f.1', 'not_an_ip'],
  ])('blocks %s (%s)', (address, reason) => {
    expect(policy.check(address)).toEqual({ allowed: false, reason });
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.215.14',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    'fbff::1',
    'fe00::1',
  ])('allows the public address %s', (address) => {
    expect(policy.check(address)).toEqual({ allowed: true, exempt: false });
  });

  it('exempts allowNetworks, in their IPv4-mapped form too, and nothing else', () => {
    const loose = createNetworkPolicy(['127.0.0.0/8', 'fd00::/8', '10.1.2.3']);
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '::ffff:127.0.0.1',
      'fd00::1',
      '10.1.2.3',
      '64:ff9b::10.1.2.3',
    ])
      expect(loose.check(address)).toMatchObject({ allowed: true });
    for (const address of ['::1', '10.1.2.4', 'fc00::1', '169.254.169.254'])
      expect(loose.check(address)).toMatchObject({ allowed: false });
  });

  it('refuses a malformed allowNetworks entry', () => {
    for (const bad of ['127.0.0.0/33', '::/129', 'localhost', '10.0.0.0/8/8', '10.0.0.0/x', '1.2.3/8', ''])
      expect(() => parseAllowNetworks([bad])).toThrow(/not a CIDR/);
    expect(parseAllowNetworks(['0.0.0.0/0', '::/0', ' 127.0.0.0/8 '])).toHaveLength(3);
  });
});

describe('checkUrlDestination', () => {
  it('judges IP literals and localhost names, and leaves other names to delivery time', () => {
    expect(checkUrlDestination(policy, 'http://127.0.0.1:8080/x')).toEqual({
      allowed: false,
      reason: 'loopback',
    });
    expect(checkUrlDestination(policy, 'https://[::ffff:169.254.169.254]/')).toEqual({
      allowed: false,
      reason: 'link_local',
    });
    expect(checkUrlDestination(policy, 'http://0x7f.1/')).toEqual({ allowed: false, reason: 'loopback' });
    expect(checkUrlDestination(policy, 'http://2130706433/')).toEqual({ allowed: false, reason: 'loopback' });
    expect(checkUrlDestination(policy, 'http://LOCALHOST/')).toEqual({ allowed: false, reason: 'loopback' });
    expect(checkUrlDestination(policy, 'http://api.localhost/')).toEqual({
      allowed: false,
      reason: 'loopback',
    });
    expect(checkUrlDestination(policy, 'https://8.8.8.8/')).toEqual({ allowed: true, exempt: false });
    expect(checkUrlDestination(policy, 'https://hooks.example.com/')).toBeUndefined();
    expect(checkUrlDestination(createNetworkPolicy(['127.0.0.0/8']), 'http://localhost:1/')).toEqual({
      allowed: true,
      exempt: true,
    });
  });
});
