/**
 * A reload that runs one at a time: notices that arrive while it runs ask for exactly one more
 * run afterwards. Overlapping reloads would each hold a full copy of the data, compete for the
 * jobs pool, and let an older snapshot that finishes last overwrite a newer one.
 */
export function coalescedReload(reload: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  const loop = async () => {
    do {
      again = false;
      await reload();
    } while (again);
  };
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = loop().finally(() => (running = undefined));
    return running;
  };
}
