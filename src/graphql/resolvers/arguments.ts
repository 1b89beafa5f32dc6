/** Argument checks shared by resolvers: the same bounds and messages as the REST parameters. */
import { invalid as badRequest } from '../../domain/errors.js';

export function assertIntInRange(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`${name} must be an integer from ${min} to ${max}`);
  }
}
