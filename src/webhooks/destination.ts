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
import { useAgent } from 'request-filtering-agent';

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

/** The agent a delivery connects with: it refuses, after DNS resolution, what the policy does not allow. */
export const connectAgent = (url: URL, policy: DestinationPolicy): Agent =>
  useAgent(url.href, { allowIPAddressList: [...policy.allowedNetworks], allowPrivateIPAddress: false, allowMetaIPAddress: false });
