/** The prediction read model's compact hourly history: one point per hour, the newest observation of it, a day kept. */
import { HourlyHistory } from '../../../src/readmodel/hourly-history.js';

const HOUR = 3_600_000;
const KEPT = 26 * HOUR;

it('keeps the newest observation of each hour and ignores observations older than the last hour', () => {
  const history = new HourlyHistory(KEPT);
  history.record('m', 0, 0.1, 10);
  history.record('m', 0, 0.2, 20);
  history.record('m', 0, 0.9, 15); // older than the hour's point: ignored
  expect(history.reference('m', 0)).toEqual({ reachesBack: true, prob: 0.2 });
  history.record('m', HOUR, 0.3, HOUR + 1);
  history.record('m', 0, 0.8, 30); // an hour already behind the last one: ignored
  expect(history.reference('m', 0)).toEqual({ reachesBack: true, prob: 0.2 });
  expect(history.reference('m', HOUR)).toEqual({ reachesBack: true, prob: 0.3 });
});

it('measures from the last point at or before the time asked, else from the first point', () => {
  const history = new HourlyHistory(KEPT);
  for (let h = 0; h < 5; h++) history.add('m', h * HOUR, h / 10, h * HOUR);
  expect(history.reference('m', 2.5 * HOUR)).toEqual({ reachesBack: true, prob: 0.2 });
  expect(history.reference('m', -HOUR)).toEqual({ reachesBack: false, prob: 0 });
  expect(history.reference('other', 0)).toBeUndefined();
});

it('drops points older than the kept span as new hours arrive', () => {
  const history = new HourlyHistory(KEPT);
  for (let h = 0; h <= 30; h++) history.record('m', h * HOUR, h / 100, h * HOUR);
  // Kept: hours 4 to 30 (26 hours back from the last); the oldest point left is hour 4.
  expect(history.reference('m', 0)).toEqual({ reachesBack: false, prob: 0.04 });
  expect(history.reference('m', 4 * HOUR)).toEqual({ reachesBack: true, prob: 0.04 });
});
