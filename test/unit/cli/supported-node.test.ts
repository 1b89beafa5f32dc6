/** The runtime check the CLI runs first agrees with package.json's engines (what npm enforces). */
import fs from 'node:fs';
import { isSupportedNode, SUPPORTED_NODE } from '../../../src/cli/supported-node.js';

it("states the same range as package.json's engines", () => {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
  expect(pkg.engines.node).toBe(SUPPORTED_NODE);
});

it.each([
  ['v20.20.2', false],
  ['18.19.0', false],
  ['22.14.0', false],
  ['22.15.0', true],
  ['22.23.3', true],
  ['23.11.0', false],
  ['24.0.0', true],
  ['v24.21.0', true],
  ['25.2.1', false],
  ['26.0.0', true],
])('Node %s supported: %s', (version, supported) => {
  expect(isSupportedNode(version)).toBe(supported);
});
