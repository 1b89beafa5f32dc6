/** What the start-up line reports of V8's heap settings: node puts NODE_OPTIONS before the command line, so the command line wins. */
import { v8HeapOf } from '../../../src/config/v8-heap.js';

it('reads the bin’s flags, and V8’s defaults when none is given', () => {
  expect(v8HeapOf(['--max-semi-space-size=16', '--heap-growing-percent=50'])).toEqual({ semiSpaceMb: 16, heapGrowingPercent: 50 });
  expect(v8HeapOf(['--enable-source-maps'], '')).toEqual({ semiSpaceMb: 'v8 default', heapGrowingPercent: 'v8 default' });
});

it('takes NODE_OPTIONS where the command line is silent, the command line where both set one, and either spelling', () => {
  expect(v8HeapOf(['--max-semi-space-size=16'], '--max_semi_space_size=32 --heap-growing-percent=100')).toEqual({
    semiSpaceMb: 16,
    heapGrowingPercent: 100,
  });
});
