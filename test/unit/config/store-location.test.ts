/** What the server's start log and every CLI command say about the store: where it is, never a password. */
import { storeLocation } from '../../../src/config/open-store.js';

it.each([
  ['postgres://gateway:s3cret@db.internal:6543/market', 'PostgreSQL db.internal:6543/market'],
  ['postgresql://gateway:s3cret@10.0.0.5/market?sslmode=require', 'PostgreSQL 10.0.0.5:5432/market'],
])('%s is shown as %s', (databaseUrl, shown) => {
  const location = storeLocation({ databaseUrl, dataDir: '/ignored' });
  expect(location).toBe(shown);
  expect(location).not.toContain('s3cret');
  expect(location).not.toContain('gateway');
});

it('the embedded store is its file in DATA_DIR', () => {
  expect(storeLocation({ databaseUrl: undefined, dataDir: '/srv/gateway/data' })).toBe('SQLite /srv/gateway/data/market-gateway.sqlite');
});
