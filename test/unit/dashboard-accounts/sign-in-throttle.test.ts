/**
 * The sign-in throttle per client address (src/dashboard-accounts/sign-in-throttle.ts): 100 failures from one
 * address within 15 minutes block it for every email, a right password included, while another
 * address still may try; with Redis, instances sharing it share the count, so spreading the guesses
 * over several instances gains nothing.
 */
import { Redis } from 'ioredis';
import { createSignInThrottle, SIGN_IN_LIMITS, type SignInThrottle } from '../../../src/dashboard-accounts/sign-in-throttle.js';
import { randomBase62 } from '../../../src/domain/ids.js';
import { gated } from '../../support/gates.js';
import { freePort } from '../../support/ports.js';
import { SHARED_REDIS_URL } from '../../support/redis.js';

/** An address and emails of this run alone (the shared Redis keeps its counts for 15 minutes). */
const run = randomBase62(8);
const address = (n: number) => `198.51.100.${n}-${run}`;
const email = (n: number) => `guess-${n}-${run}@example.com`;

/** `failures` failed sign-ins from `from`, each for another email, spread over the throttles in turn. */
async function failFrom(throttles: SignInThrottle[], from: string, failures: number): Promise<void> {
  for (let i = 0; i < failures; i++) await throttles[i % throttles.length]!.failed(email(i), from);
}

it('in memory: the 100th failure from an address blocks it for any email, for up to 15 minutes; another address may still try', async () => {
  const throttle = createSignInThrottle();
  await failFrom([throttle], address(1), SIGN_IN_LIMITS.perAddress - 1);
  expect(await throttle.waitSeconds(email(1_000), address(1))).toBe(0); // 99: one more try
  await failFrom([throttle], address(1), 1);
  const wait = await throttle.waitSeconds(email(1_000), address(1)); // a fresh email, the same address
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(SIGN_IN_LIMITS.windowSeconds);
  expect(await throttle.waitSeconds(email(1_000), address(2))).toBe(0);
  // A success forgets the email's failures, not the address's.
  await throttle.succeeded(email(0));
  expect(await throttle.waitSeconds(email(0), address(1))).toBeGreaterThan(0);
});

it('in memory: the 10th failure for an email blocks it from every address, for the whole window; its success forgets them', async () => {
  const throttle = createSignInThrottle();
  const target = email(5_000);
  for (let i = 0; i < SIGN_IN_LIMITS.perEmail - 1; i++) await throttle.failed(target, address(20 + i));
  expect(await throttle.waitSeconds(target, address(50))).toBe(0); // 9: one more try
  await throttle.failed(target, address(40));
  const wait = await throttle.waitSeconds(target, address(50)); // an address that never failed
  expect(wait).toBeGreaterThan(SIGN_IN_LIMITS.windowSeconds - 60);
  expect(wait).toBeLessThanOrEqual(SIGN_IN_LIMITS.windowSeconds);
  expect(await throttle.waitSeconds(email(5_001), address(50))).toBe(0); // another email from there
  await throttle.failed(target, address(41)); // refused attempts go on counting, without an error
  await throttle.succeeded(target);
  expect(await throttle.waitSeconds(target, address(50))).toBe(0);
});

it('a throttle store that fails is an error, never read as a refusal nor as a pass', async () => {
  // A Redis that is not there: no offline queue, no retry, so each command fails at once.
  const client = new Redis(await freePort(), '127.0.0.1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    const throttle = createSignInThrottle(client);
    await expect(throttle.failed(email(6_000), address(60))).rejects.toThrow();
    await expect(throttle.waitSeconds(email(6_000), address(60))).rejects.toThrow();
  } finally {
    client.disconnect();
  }
});

gated('redis')('through Redis: failures spread over three instances add up to one count per address', async () => {
  const clients = [new Redis(SHARED_REDIS_URL), new Redis(SHARED_REDIS_URL), new Redis(SHARED_REDIS_URL)];
  try {
    const instances = clients.map((client) => createSignInThrottle(client));
    await failFrom(instances, address(3), SIGN_IN_LIMITS.perAddress);
    // Each instance saw a third of them, and each refuses the address.
    for (const instance of instances) expect(await instance.waitSeconds(email(2_000), address(3))).toBeGreaterThan(0);
    expect(await instances[0]!.waitSeconds(email(2_000), address(4))).toBe(0);
    // Per email too: ten failures over two instances block the email on a third.
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i++) await instances[i % 2]!.failed(email(3_000), address(10 + i));
    expect(await instances[2]!.waitSeconds(email(3_000), address(99))).toBeGreaterThan(0);
    // Under names of their own in the shared Redis: every instance, of any version, counts in the same keys.
    expect(await clients[0]!.exists(`mgw:signin:email:${email(3_000)}`, `mgw:signin:addr:${address(3)}`)).toBe(2);
  } finally {
    for (const client of clients) client.disconnect();
  }
});
