/**
 * Open files (sockets included) a process may hold. Each connection is one; once the soft limit is
 * reached, new connections fail for everyone. Node raises the soft limit to the hard one when it
 * starts (libuv's platform init), so there is nothing to raise here: the limit is read, logged at
 * start, and the listeners cap connections below it.
 */
import fs from 'node:fs';

export interface OpenFileLimit {
  soft: number;
  hard: number;
}

/** The process's limit, or undefined where it cannot be read (not Linux). */
export function openFileLimit(): OpenFileLimit | undefined {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const [soft, hard] = (line?.match(/(\d+|unlimited)\s+(\d+|unlimited)/)?.slice(1) ?? []).map((v) =>
      v === 'unlimited' ? Number.POSITIVE_INFINITY : Number(v),
    );
    return soft !== undefined && hard !== undefined ? { soft, hard } : undefined;
  } catch {
    return undefined;
  }
}
