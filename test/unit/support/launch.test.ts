/**
 * The tests' one launcher (test/support/launch.ts) and the service started through it
 * (child-service.ts): a kill takes the whole process group, the leader's orphans included (what
 * `npm start` leaves when npm alone is killed), and a start-up that times out kills the service
 * before it rejects.
 */
import { spawnService } from '../../support/child-service.js';
import { tempDataDir } from '../../support/engines.js';
import { isAlive as alive, launch } from '../../support/launch.js';
import { within } from '../../support/wait.js';

it('kill() takes the whole group: a grandchild whose parent already exited (an orphan, as the server npm exec’d) goes too', async () => {
  const shell = launch('sh', ['-c', 'sleep 60 & echo $!']);
  expect(await shell.exited).toBe(0); // the leader is gone; its child lives on in the group
  const orphan = Number(shell.stdout().trim());
  expect(alive(orphan)).toBe(true);
  await shell.kill();
  await within(5_000, () => !alive(orphan));
  expect(alive(orphan)).toBe(false);
});

it('a service that does not listen in time is killed before the start-up rejects', async () => {
  const error = (await spawnService({ DATA_DIR: tempDataDir() }, 1).catch((e: unknown) => e)) as Error;
  expect(error.message).toMatch(/not listening within 1 ms \(pid \d+, killed\)/);
  const pid = Number(/\(pid (\d+), killed\)/.exec(error.message)![1]);
  expect(alive(pid)).toBe(false); // already gone when it rejected, not at the file's end
});
