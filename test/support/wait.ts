/** Polls `check` until it holds; returns how long that took, or throws after `ms`. */
export async function within(ms: number, check: () => Promise<boolean> | boolean, everyMs = 50): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return Date.now() - started;
}
