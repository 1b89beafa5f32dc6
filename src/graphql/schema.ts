/** The executable schema: SDL from schema/*.graphql (schema first) joined with the resolvers. */
import fs from 'node:fs';
import path from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { packageRoot } from '../package-info.js';
import { applyFieldRateLimits } from './field-rate-limits.js';
import { resolvers } from './resolvers/index.js';

export function loadTypeDefs(): string[] {
  const dir = path.join(packageRoot(), 'schema');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
}

export function createSchema(): GraphQLSchema {
  return applyFieldRateLimits(makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers: resolvers as never }));
}
