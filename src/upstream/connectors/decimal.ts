/** Decimal numbers as upstreams write them: plain decimal text only, where Number() would also take '' (0), '0x10' (16) or '.5'. */
import { z } from 'zod';

const DECIMAL_TEXT = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** A cell of a CSV, or undefined when it is not a plain decimal. */
export function decimalCell(text: string | undefined): number | undefined {
  return text !== undefined && DECIMAL_TEXT.test(text) ? Number(text) : undefined;
}

/** A finite number, or a plain decimal string (`"0.4350"`, `"12927.00"`). */
export const decimal = z
  .union([z.number(), z.string().trim().regex(DECIMAL_TEXT, 'not a decimal number')])
  .pipe(z.coerce.number())
  .refine(Number.isFinite, 'not a finite number');

export const positiveDecimal = decimal.refine((n) => n > 0, 'not positive');
export const nonNegativeDecimal = decimal.refine((n) => n >= 0, 'negative');
/** A probability 0..1, as a number or a decimal string. */
export const probability = decimal.refine((p) => p >= 0 && p <= 1, 'probability outside 0..1');
