import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inject } from 'light-my-request';
import { BaseRouter, Get, router } from '../index';
import { rateLimit } from '../plugins';
import { silentLogger } from './fixtures/captured-log';

class Tasks extends router('/tasks') {
  @Get('/') list() { return ['write docs']; }
}

describe('trust_proxy: who the client is', () => {
  const from = (handler: ReturnType<BaseRouter['handler']> extends infer H ? H : never, remoteAddress: string, forwarded?: string) =>
    inject(handler as never, { method: 'GET', url: '/tasks', remoteAddress, headers: forwarded ? { 'x-forwarded-for': forwarded } : {} });

  async function statuses(trustProxy: unknown, requests: Array<[string, string | undefined]>, ipv6Subnet?: number | false) {
    const built = new BaseRouter({ logger: silentLogger() }).includeRouter(Tasks).register(rateLimit({ limit: 1, trustProxy: trustProxy as never, ipv6Subnet }));
    await built.start();
    const out: number[] = [];
    for (const [remote, forwarded] of requests) out.push((await from(built.handler as never, remote, forwarded)).statusCode);
    await built.stop();
    return out;
  }

  it('ignores a spoofed X-Forwarded-For when no proxy is trusted (the default)', async () => {
    assert.deepEqual(await statuses(false, [['203.0.113.7', '1.1.1.1'], ['203.0.113.7', '2.2.2.2'], ['203.0.113.8', undefined]]), [200, 429, 200]);
  });

  it('trusts a listed proxy (CIDR) to name the client, and nobody else', async () => {
    const trust = ['10.0.0.0/8'];
    assert.deepEqual(await statuses(trust, [['10.1.2.3', '1.1.1.1'], ['10.1.2.3', '2.2.2.2'], ['10.9.9.9', '1.1.1.1']]), [200, 200, 429]);
    // From an untrusted peer the header is the client's own claim: ignored.
    assert.deepEqual(await statuses(trust, [['203.0.113.7', '1.1.1.1'], ['203.0.113.7', '2.2.2.2']]), [200, 429]);
    // A client prepending its own entries behind the trusted proxy cannot change the address the proxy saw.
    assert.deepEqual(await statuses(trust, [['10.1.2.3', '9.9.9.9, 1.1.1.1'], ['10.1.2.3', '8.8.8.8, 1.1.1.1']]), [200, 429]);
  });

  it('a number of hops takes the address that many entries from the right; IPv4-mapped addresses are IPv4', async () => {
    assert.deepEqual(await statuses(1, [['::ffff:10.0.0.1', '6.6.6.6, 1.1.1.1'], ['10.0.0.2', '7.7.7.7, 1.1.1.1'], ['10.0.0.2', '1.1.1.2']]), [200, 429, 200]);
    assert.deepEqual(await statuses(true, [['10.0.0.1', '1.1.1.1, 10.0.0.5'], ['10.0.0.2', '1.1.1.1']]), [200, 429]);
  });

  it('counts an IPv6 client per /56 by default, however the address is spelled; ipv6Subnet narrows or turns it off', async () => {
    // One host's addresses of one /56 share a count: rotating the interface id or the /64 does not get past it.
    const oneNetwork: Array<[string, string | undefined]> = [['2001:db8:0:1ab::7', undefined], ['2001:db8:0:1ff:aaaa::1', undefined], ['2001:0DB8:0000:01AB:0:0:0:9', undefined]];
    assert.deepEqual(await statuses(false, oneNetwork), [200, 429, 429]);
    assert.deepEqual(await statuses(false, [['2001:db8:0:1ab::7', undefined], ['2001:db8:0:200::7', undefined]]), [200, 200]);
    assert.deepEqual(await statuses(false, oneNetwork, 64), [200, 200, 429]);
    assert.deepEqual(await statuses(false, oneNetwork, false), [200, 200, 200]);
    // Through a trusted proxy the forwarded address is widened the same way; IPv4 clients stay per address.
    assert.deepEqual(await statuses(1, [['10.0.0.1', '2001:db8::1'], ['10.0.0.1', '2001:db8::ff:2'], ['10.0.0.1', '203.0.113.1'], ['10.0.0.1', '203.0.113.2']]), [200, 429, 200, 200]);
    // A forwarded value that is not an address is its own key, never an error.
    assert.deepEqual(await statuses(1, [['10.0.0.1', '2001:db8::1::2'], ['10.0.0.1', 'fe80::1%eth0'], ['10.0.0.1', 'fe80::2%lo']]), [200, 200, 429]);
  });

  it('reads an entry a proxy wrote with a port (Azure Application Gateway, IIS ARR) as its address', async () => {
    // Each connection has its own port: read as sent, every request would be a new client.
    assert.deepEqual(await statuses(1, [['10.0.0.1', '203.0.113.7:51234'], ['10.0.0.1', '203.0.113.7:51999'], ['10.0.0.1', '203.0.113.7'], ['10.0.0.1', '203.0.113.8:51234']]), [200, 429, 429, 200]);
    assert.deepEqual(await statuses(1, [['10.0.0.1', '[2001:db8::1]:443'], ['10.0.0.1', '[2001:db8::1]:8443'], ['10.0.0.1', '[2001:db8::1]'], ['10.0.0.1', '2001:db8::1']], false), [200, 429, 429, 429]);
    assert.deepEqual(await statuses(1, [['10.0.0.1', '[::ffff:203.0.113.9]:1'], ['10.0.0.1', '203.0.113.9:2']]), [200, 429]);
    assert.deepEqual(await statuses(true, [['10.0.0.1', '198.51.100.4:5000, 10.0.0.5:6000'], ['10.0.0.2', '198.51.100.4:5001']]), [200, 429]);
  });

  it('strips the port of the proxies\' own entries too: a listed proxy with a port is still trusted', async () => {
    const trust = ['10.0.0.0/8'];
    assert.deepEqual(await statuses(trust, [['10.1.2.3', '198.51.100.1, 10.0.0.9:8080'], ['10.1.2.3', '198.51.100.1:3000, 10.0.0.7:9090']]), [200, 429]);
  });

  it('leaves what is not an address with a port as sent: its own key, never an error', async () => {
    // A bare IPv6 address's last group is not a port; `1.2.3.4:99999`, `host:80`, `[nope]:1`, `1.2.3.4:` are not addresses.
    assert.deepEqual(await statuses(1, [['10.0.0.1', '2001:db8::1:80'], ['10.0.0.1', '2001:db8::1:81']], false), [200, 200]);
    const odd = ['1.2.3.4:99999', '1.2.3.4:', 'host:80', '[nope]:1', '[2001:db8::1]x', '[2001:db8::1', '1.2.3.4:8a', ':80', '[]:80'];
    assert.deepEqual(await statuses(1, odd.map((value) => ['10.0.0.1', value])), odd.map(() => 200));
    assert.deepEqual(await statuses(1, [['10.0.0.1', '1.2.3.4:99999'], ['10.0.0.1', '1.2.3.4:99999'], ['10.0.0.1', '1.2.3.4']]), [200, 429, 200]);
  });

  it('refuses an ipv6Subnet that is not a prefix length', () => {
    for (const bits of [0, 129, 1.5, '64', true]) {
      assert.throws(() => new BaseRouter({ logger: silentLogger() }).register(rateLimit({ ipv6Subnet: bits as never })), /ipv6Subnet/);
    }
  });

  it('refuses entries that are not addresses or CIDRs', () => {
    for (const trust of [['10.0.0.0/33'], ['example.com'], ['10.0.0.0/8/1'], -1, 'yes']) {
      assert.throws(() => new BaseRouter({ logger: silentLogger() }).register(rateLimit({ trustProxy: trust as never })), /trustProxy/);
    }
  });
});
