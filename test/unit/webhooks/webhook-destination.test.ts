/**
 * Where webhooks may go. Every refused range is checked on the classification itself (no socket
 * opened to anything but loopback); the connect-time refusal is checked with names and forms that
 * resolve to loopback, against a loopback receiver that must never see a request.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { checkWebhookUrl, createConnectAgents, type DestinationPolicy, parseAllowedNetworks } from '../../../src/webhooks/destination.js';
import { sendAttempt } from '../../../src/webhooks/send.js';
import { gatedDescribe } from '../../support/gates.js';

const strict: DestinationPolicy = { allowHttp: false, allowedNetworks: [] };
const reasonOf = (url: string, policy = strict) => {
  const check = checkWebhookUrl(url, policy);
  return check.ok ? undefined : check.reason;
};

it.each([
  ['loopback', 'https://127.0.0.1/hook', /loopback/],
  ['loopback, short form', 'https://127.1/hook', /loopback/],
  ['loopback, hexadecimal', 'https://0x7f000001/hook', /loopback/],
  ['private 10/8', 'https://10.1.2.3/hook', /private/],
  ['private 172.16/12', 'https://172.16.0.1/hook', /private/],
  ['private 192.168/16', 'https://192.168.1.10/hook', /private/],
  ['cloud metadata', 'https://169.254.169.254/latest/meta-data', /linkLocal/],
  ['carrier-grade NAT', 'https://100.64.0.1/hook', /carrierGradeNat/],
  ['unspecified', 'https://0.0.0.0/hook', /unspecified/],
  ['multicast', 'https://224.0.0.1/hook', /multicast/],
  ['IPv6 loopback', 'https://[::1]/hook', /loopback/],
  ['IPv6 unique-local', 'https://[fc00::1]/hook', /uniqueLocal/],
  ['IPv6 link-local', 'https://[fe80::1]/hook', /linkLocal/],
  ['IPv6 multicast', 'https://[ff02::1]/hook', /multicast/],
  ['IPv6 unspecified', 'https://[::]/hook', /unspecified/],
  ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook', /ipv4Mapped/],
  ['IPv4-mapped private', 'https://[::ffff:10.0.0.1]/hook', /ipv4Mapped/],
  ['localhost by name', 'https://localhost/hook', /this machine/],
  ['a *.localhost name', 'https://api.localhost/hook', /this machine/],
  ['plain http', 'http://example.com/hook', /must be https/],
  ['credentials in the URL', 'https://user:secret@example.com/hook', /credentials/],
  ['a non-web privileged port', 'https://example.com:22/hook', /port 22/],
  ['not a URL', 'example.com/hook', /absolute URL/],
  ['over 2 048 characters', `https://example.com/${'a'.repeat(2_100)}`, /longer than 2048/],
])('refuses %s at registration', (_name, url, reason) => {
  expect(reasonOf(url)).toMatch(reason);
});

it.each(['https://example.com/hooks/mgw', 'https://93.184.216.34/hook', 'https://hooks.example.com:8443/x', 'https://[2606:4700::1111]/hook'])(
  'accepts %s',
  (url) => {
    expect(reasonOf(url)).toBeUndefined();
  },
);

it('the operator may allow plain http and named networks', () => {
  const local = parseAllowedNetworks('127.0.0.0/8, ::1/128');
  expect(local).toEqual({ networks: ['127.0.0.0/8', '::1/128'] });
  const policy: DestinationPolicy = { allowHttp: true, allowedNetworks: (local as { networks: string[] }).networks };
  expect(reasonOf('http://127.0.0.1:9000/hook', policy)).toBeUndefined();
  expect(reasonOf('http://localhost:9000/hook', policy)).toBeUndefined();
  expect(reasonOf('http://[::1]:9000/hook', policy)).toBeUndefined();
  expect(reasonOf('http://10.0.0.1/hook', policy)).toMatch(/private/); // only what is listed
  expect(parseAllowedNetworks('10.0.0.0/33')).toEqual({ error: expect.stringMatching(/not a CIDR/) });
});

// The receiver listens on both families ('::'): that needs IPv6 (gates.ts).
gatedDescribe('ipv6')('at connect time, on the resolved address', () => {
  let receiver: http.Server;
  let port: number;
  let seen = 0;
  beforeAll(async () => {
    receiver = http.createServer((_req, res) => {
      seen++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '::', resolve)); // both families, loopback included
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  /** One delivery attempt as the worker makes it: through the filtering agents. */
  async function post(url: URL, policy: DestinationPolicy) {
    const agents = createConnectAgents(policy);
    try {
      return await sendAttempt({ url: url.href, body: '{}', headers: {} }, { agents, timeoutMs: 30_000, userAgent: 'test' });
    } finally {
      agents.destroy();
    }
  }

  it.each(['localhost', '127.1', '0x7f000001', '[::1]', '[::ffff:127.0.0.1]'])(
    'refuses %s when loopback is not allowed, before a byte is sent',
    async (host) => {
      const url = new URL(`http://${host}:${port}/hook`);
      const before = seen;
      expect(await post(url, { allowHttp: true, allowedNetworks: [] })).toEqual({
        kind: 'failed',
        error: expect.stringMatching(/^destination refused: .*not allowed/),
      });
      expect(seen).toBe(before);
    },
  );

  it('connects where the operator allows loopback', async () => {
    const policy: DestinationPolicy = { allowHttp: true, allowedNetworks: ['127.0.0.0/8', '::1/128'] };
    expect(await post(new URL(`http://localhost:${port}/hook`), policy)).toMatchObject({ kind: 'answered', status: 200, response: 'ok' });
    expect(await post(new URL(`http://127.1:${port}/hook`), policy)).toMatchObject({ kind: 'answered', status: 200 });
    expect(await post(new URL(`http://[::1]:${port}/hook`), policy)).toMatchObject({ kind: 'answered', status: 200 });
  });
});

describe('the limits of a URL at registration', () => {
  it('2 048 characters are allowed, one more is not', () => {
    const base = 'https://example.com/';
    expect(reasonOf(base + 'a'.repeat(2_048 - base.length))).toBeUndefined();
    expect(reasonOf(base + 'a'.repeat(2_049 - base.length))).toBe('the URL is longer than 2048 characters');
  });

  it('ports: 80 and 443, and 1024 and above; the other privileged ones are refused', () => {
    const http: DestinationPolicy = { allowHttp: true, allowedNetworks: [] };
    expect(reasonOf('https://example.com:443/h')).toBeUndefined();
    expect(reasonOf('https://example.com:80/h')).toBeUndefined();
    expect(reasonOf('http://example.com/h', http)).toBeUndefined(); // 80 by default
    expect(reasonOf('http://example.com:443/h', http)).toBeUndefined();
    expect(reasonOf('https://example.com:1024/h')).toBeUndefined();
    expect(reasonOf('https://example.com:1023/h')).toBe('port 1023 is not a web port (80, 443, or 1024 and above)');
    expect(reasonOf('http://example.com:25/h', http)).toBe('port 25 is not a web port (80, 443, or 1024 and above)');
    expect(reasonOf('https://example.com:1/h')).toMatch(/^port 1 /);
  });

  it('schemes: https, and http only where allowed; each refusal says what is allowed', () => {
    expect(reasonOf('http://example.com/h')).toBe('the URL must be https:// (http:// only where WEBHOOK_ALLOW_HTTP=1)');
    expect(reasonOf('ftp://example.com/h')).toBe('the URL must be https:// (http:// only where WEBHOOK_ALLOW_HTTP=1)');
    expect(reasonOf('ftp://example.com/h', { allowHttp: true, allowedNetworks: [] })).toBe('the URL must be https:// or http://');
    expect(reasonOf('ws://example.com/h', { allowHttp: true, allowedNetworks: [] })).toBe('the URL must be https:// or http://');
  });

  it('credentials: a user name alone, or a password alone, is refused too', () => {
    expect(reasonOf('https://user@example.com/h')).toBe('the URL must not carry credentials (user:password@)');
    expect(reasonOf('https://:secret@example.com/h')).toBe('the URL must not carry credentials (user:password@)');
  });

  it('a refused address says its range and how to allow it; a localhost name says it is this machine', () => {
    expect(reasonOf('https://10.0.0.1/h')).toBe('10.0.0.1 is a private address, not a public one (allow its network with WEBHOOK_ALLOWED_NETWORKS)');
    expect(reasonOf('https://[fc00::1]/h')).toBe('fc00::1 is a uniqueLocal address, not a public one (allow its network with WEBHOOK_ALLOWED_NETWORKS)');
    expect(reasonOf('https://localhost/h')).toBe(
      'localhost is this machine (a loopback address, not a public one (allow its network with WEBHOOK_ALLOWED_NETWORKS))',
    );
    // Only localhost and names under it: a name that merely ends in "localhost" is someone else's.
    expect(reasonOf('https://notlocalhost/h')).toBeUndefined();
    expect(reasonOf('https://localhost.example.com/h')).toBeUndefined();
  });

  it('an allowed network of one family never admits, nor breaks on, an address of the other', () => {
    const v6only: DestinationPolicy = { allowHttp: false, allowedNetworks: ['::/0'] };
    expect(reasonOf('https://127.0.0.1/h', v6only)).toMatch(/loopback/);
    expect(reasonOf('https://[::1]/h', v6only)).toBeUndefined();
    const v4only: DestinationPolicy = { allowHttp: false, allowedNetworks: ['0.0.0.0/0'] };
    expect(reasonOf('https://[::1]/h', v4only)).toMatch(/loopback/);
    expect(reasonOf('https://10.9.9.9/h', v4only)).toBeUndefined();
    expect(reasonOf('https://localhost/h', { allowHttp: false, allowedNetworks: ['127.0.0.1/32'] })).toBeUndefined();
    expect(reasonOf('https://10.0.0.2/h', { allowHttp: false, allowedNetworks: ['10.0.0.1/32'] })).toMatch(/private/);
  });

  it('an accepted URL is handed back parsed, names and addresses alike', () => {
    for (const raw of ['https://hooks.example.com/x?y=1', 'https://93.184.216.34/hook', 'https://[2606:4700::1111]:8443/hook']) {
      const check = checkWebhookUrl(raw, strict);
      expect(check).toEqual({ ok: true, url: new URL(raw) });
    }
  });

  it('WEBHOOK_ALLOWED_NETWORKS: unset or empty allows nothing; blanks and empty items are skipped; the first bad one is named', () => {
    expect(parseAllowedNetworks(undefined)).toEqual({ networks: [] });
    expect(parseAllowedNetworks('')).toEqual({ networks: [] });
    expect(parseAllowedNetworks(' 10.0.0.0/8 ,, fd00::/8 ,')).toEqual({ networks: ['10.0.0.0/8', 'fd00::/8'] });
    expect(parseAllowedNetworks('10.0.0.0/8,10.0.0.1,::1/129')).toEqual({ error: '"10.0.0.1" is not a CIDR such as 127.0.0.0/8 or ::1/128' });
  });
});

describe('the agents deliveries connect with', () => {
  const policy: DestinationPolicy = { allowHttp: true, allowedNetworks: ['::1/128', '127.0.0.0/8'] };

  it("one agent for an address, of its family and scheme; for a name, IPv4's then IPv6's; connections kept alive", async () => {
    const agents = createConnectAgents(policy);
    try {
      const familyOf = (agent: http.Agent) => (agent as unknown as { options: { family: number } }).options.family;
      const [v4] = await agents.for(new URL('https://93.184.216.34/hook'));
      expect(v4).toBeInstanceOf(https.Agent);
      expect(familyOf(v4!)).toBe(4);
      const [v6] = await agents.for(new URL('http://[2606:4700::1111]/hook'));
      expect(v6).not.toBeInstanceOf(https.Agent);
      expect(familyOf(v6!)).toBe(6);
      const named = await agents.for(new URL('https://hooks.example.com/x'));
      expect(named.map(familyOf)).toEqual([4, 6]);
      for (const agent of [...named, v4!, v6!]) expect((agent as unknown as { keepAlive: boolean }).keepAlive).toBe(true);
      expect((await agents.for(new URL('http://hooks.example.com/x'))).every((a) => !(a instanceof https.Agent))).toBe(true);
    } finally {
      agents.destroy();
    }
  });

  it('destroy closes every agent, and is harmless before the first delivery', async () => {
    createConnectAgents(policy).destroy();
    const agents = createConnectAgents(policy);
    const all = [...(await agents.for(new URL('https://hooks.example.com/x'))), ...(await agents.for(new URL('http://hooks.example.com/x')))];
    const destroyed: http.Agent[] = [];
    for (const agent of all) {
      const own = agent.destroy.bind(agent);
      agent.destroy = () => {
        destroyed.push(agent);
        own();
      };
    }
    agents.destroy();
    await new Promise((resolve) => setImmediate(resolve)); // once the load it waits for has settled
    expect(new Set(destroyed)).toEqual(new Set(all));
    expect(destroyed).toHaveLength(4);
  });

  it('each family is given only its own allowed networks: no warning on every connection', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = http.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    const agents = createConnectAgents(policy);
    try {
      const outcome = await sendAttempt({ url: `http://127.0.0.1:${closed}/hook`, body: '{}', headers: {} }, { agents, timeoutMs: 5_000, userAgent: 'test' });
      expect(outcome).toMatchObject({ kind: 'failed' });
      expect(JSON.stringify(outcome)).not.toMatch(/destination refused/); // allowed: it only found nobody listening
    } finally {
      console.warn = warn;
      agents.destroy();
    }
    expect(warnings).toEqual([]);
  });
});
