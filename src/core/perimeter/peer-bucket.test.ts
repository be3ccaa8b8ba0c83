import { describe, expect, it } from 'vitest';
import { LOOPBACK_BUCKET, peerBucket } from './peer-bucket.js';

describe('peerBucket', () => {
  it.each([
    // Every loopback spelling is one range.
    ['127.0.0.1', LOOPBACK_BUCKET],
    ['127.0.0.2', LOOPBACK_BUCKET],
    ['127.255.255.254', LOOPBACK_BUCKET],
    ['::1', LOOPBACK_BUCKET],
    ['0:0:0:0:0:0:0:1', LOOPBACK_BUCKET],
    ['0000:0000:0000:0000:0000:0000:0000:0001', LOOPBACK_BUCKET],
    ['[::1]', LOOPBACK_BUCKET],
    ['::ffff:127.0.0.1', LOOPBACK_BUCKET],
    ['::FFFF:127.3.2.1', LOOPBACK_BUCKET],
    ['::ffff:7f00:1', LOOPBACK_BUCKET],
    ['0:0:0:0:0:ffff:127.0.0.1', LOOPBACK_BUCKET],
    // IPv4 counts per address; the IPv4-mapped forms are that address.
    ['192.0.2.7', '192.0.2.7'],
    [' 192.0.2.7 ', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::ffff:c000:207', '192.0.2.7'],
    ['0:0:0:0:0:FFFF:192.0.2.7', '192.0.2.7'],
    ['192.0.2.8', '192.0.2.8'],
    // IPv6 counts per /64, however it is written.
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::1]', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:0:0:1::', '2001:db8:0:0::/64'],
    ['fd00::7', 'fd00:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    // A zone names the interface, not the peer.
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['fe80::2%2', 'fe80:0:0:0::/64'],
    // A v4 tail on an address that is not v4-mapped is two ordinary groups.
    ['64:ff9b::192.0.2.7', '64:ff9b:0:0::/64'],
    // Not an address: counted on its own, as written.
    ['', ''],
    ['unix:/run/jig.sock', 'unix:/run/jig.sock'],
    ['1::2::3', '1::2::3'],
    ['1:2:3:4:5:6:7', '1:2:3:4:5:6:7'],
    ['1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7:8:9'],
    ['12345::1', '12345::1'],
    ['256.0.0.1', '256.0.0.1'],
    ['01.2.3.4', '01.2.3.4'],
    ['::ffff:1.2.3', '::ffff:1.2.3'],
  ])('%j -> %j', (address, bucket) => {
    expect(peerBucket(address)).toBe(bucket);
  });
});
