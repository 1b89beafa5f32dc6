/**
 * The Node versions this service runs on, checked before anything else is loaded: under an older
 * one better-sqlite3 (Node-API 10) crashes without a word (a bare exit 139 from a systemd unit or
 * the bin), so the process says what it needs instead. Mirrors package.json's `engines`.
 */
export const SUPPORTED_NODE = '^22.15.0 || ^24.0.0 || >=26';

/** 22.15 or newer 22, any 24, 26 and later (25 is an odd release, past its end). */
export function isSupportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return (major === 22 && minor >= 15) || major === 24 || major >= 26;
}

if (!isSupportedNode(process.versions.node)) {
  process.stderr.write(`market-gateway needs Node 24 (or 22.15+; ${SUPPORTED_NODE}); this is Node ${process.versions.node}. The README says how to get it.\n`);
  process.exit(1);
}
