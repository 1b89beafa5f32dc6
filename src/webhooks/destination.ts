/**
 * Where a webhook may be sent. Checked twice: when an endpoint is registered, on its URL (scheme,
 * credentials, length, port, and an address written in the URL), and when a delivery connects, on
 * the address the name resolved to (so DNS rebinding does not help), by request-filtering-agent.
 * Loopback, private, link-local (cloud metadata 169.254.169.254), unique-local, multicast,
 * unspecified, carrier-grade NAT and IPv4-mapped forms are refused unless the operator allows
 * their network (WEBHOOK_ALLOWED_NETWORKS).
 */
import type { Agent } from 'node:http';
import ipaddr from 'ipaddr.js';
import { loadOnce } from '../load-once.js';

export interface DestinationPolicy {
  /** `http://` allowed as well as `https://` (WEBHOOK_ALLOW_HTTP=1; for tests and internal networks). */
  allowHttp: boolean;
  /** CIDRs an endpoint may resolve to although they are not public (WEBHOOK_ALLOWED_NETWORKS). */
  allowedNetworks: readonly string[];
}

export const MAX_URL_LENGTH = 2_048;
/** Ports below 1024 other than the web's two are other services (SSH, SMTP, ...): refused. */
const WEB_PORTS = new Set([80, 443]);

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** The CIDRs of WEBHOOK_ALLOWED_NETWORKS, or the first one that does not parse. */
export function parseAllowedNetworks(text: string | undefined): { networks: string[] } | { error: string } {
  const networks = (text ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  for (const network of networks) {
    try {
      ipaddr.parseCIDR(network);
    } catch {
      return { error: `"${network}" is not a CIDR such as 127.0.0.0/8 or ::1/128` };
    }
  }
  return { networks };
}

const inAllowedNetwork = (address: ipaddr.IPv4 | ipaddr.IPv6, networks: readonly string[]) =>
  networks.some((network) => {
    const [range, bits] = ipaddr.parseCIDR(network);
    return range.kind() === address.kind() && address.match(range, bits);
  });

/** Why an address may not receive webhooks, or undefined when it may. */
export function refusedAddress(text: string, policy: Pick<DestinationPolicy, 'allowedNetworks'>): string | undefined {
  const address = ipaddr.parse(text);
  if (inAllowedNetwork(address, policy.allowedNetworks)) return undefined;
  const range = address.range();
  return range === 'unicast' ? undefined : `${text} is a ${range} address, not a public one (allow its network with WEBHOOK_ALLOWED_NETWORKS)`;
}

/** The checks made when an endpoint is registered; the resolved address is checked again at connect time. */
export function checkWebhookUrl(raw: string, policy: DestinationPolicy): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `the URL is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    return {
      ok: false,
      reason: policy.allowHttp ? 'the URL must be https:// or http://' : 'the URL must be https:// (http:// only where WEBHOOK_ALLOW_HTTP=1)',
    };
  }
  if (url.username || url.password) return { ok: false, reason: 'the URL must not carry credentials (user:password@)' };
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (port < 1024 && !WEB_PORTS.has(port)) return { ok: false, reason: `port ${port} is not a web port (80, 443, or 1024 and above)` };
  // The URL parser has already normalised odd IPv4 forms (127.1, 0x7f000001) and IPv6 ones.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const reason = refusedAddress(host, policy);
    if (reason) return { ok: false, reason };
  } else if (host === 'localhost' || host.endsWith('.localhost')) {
    // Names that always mean this machine (RFC 6761): refused like its addresses.
    const reason = refusedAddress('127.0.0.1', policy);
    if (reason) return { ok: false, reason: `${host} is this machine (${reason.split(' is ')[1]})` };
  }
  return { ok: true, url };
}

/**
 * The agents deliveries connect with, made with the first delivery (request-filtering-agent is
 * loaded then: 3 MB of RSS an instance that sends no webhook does without), keeping connections to
 * a receiver alive between deliveries. request-filtering-agent refuses, after DNS resolution, what
 * the policy does not allow. One agent per address family, each given only its family's allowed
 * networks and resolving only that family: the library warns (with a stack, on every connection)
 * when it compares an address with a network of the other family. A name is tried over IPv4, then
 * over IPv6 if it has no IPv4 address.
 */
export function createConnectAgents(policy: DestinationPolicy) {
  const agents = loadOnce(() => makeFamilyAgents(policy));
  return {
    /** The agents to try in order: the one of the address's family, or IPv4 then IPv6 for a name. */
    async for(url: URL): Promise<Agent[]> {
      const families = await agents();
      const pick = (family: 4 | 6): Agent => {
        const pair = families.find((a) => a.family === family)!;
        return url.protocol === 'https:' ? pair.https : pair.http;
      };
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (ipaddr.isValid(host)) return [pick(ipaddr.parse(host).kind() === 'ipv4' ? 4 : 6)];
      return [pick(4), pick(6)];
    },
    destroy(): void {
      agents.ifLoaded((families) => {
        for (const a of families) {
          a.http.destroy();
          a.https.destroy();
        }
      });
    },
  };
}

interface FamilyAgents {
  family: 4 | 6;
  http: Agent;
  https: Agent;
}

async function makeFamilyAgents(policy: DestinationPolicy): Promise<FamilyAgents[]> {
  const { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } = await import('request-filtering-agent');
  return ([4, 6] as const).map((family) => {
    const options = {
      family,
      keepAlive: true,
      allowIPAddressList: policy.allowedNetworks.filter((n) => ipaddr.parseCIDR(n)[0].kind() === (family === 4 ? 'ipv4' : 'ipv6')),
      allowPrivateIPAddress: false,
      allowMetaIPAddress: false,
    };
    return { family, http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
  });
}

export type ConnectAgents = ReturnType<typeof createConnectAgents>;
