/** DateTime is epoch ms inside and ISO 8601 UTC with milliseconds outside (D7). */
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

function parseIso(value: unknown): number {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    throw new GraphQLError('DateTime must be an ISO 8601 timestamp such as 2026-11-22T06:00:00.000Z', {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  }
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new GraphQLError(`invalid DateTime: ${value}`, { extensions: { code: 'BAD_USER_INPUT' } });
  return ms;
}

const DateTime = new GraphQLScalarType<number, string>({
  name: 'DateTime',
  serialize: (value) => new Date(value as number).toISOString(),
  parseValue: parseIso,
  parseLiteral: (ast) => parseIso(ast.kind === Kind.STRING ? ast.value : undefined),
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const DateType = new GraphQLScalarType<string, string>({
  name: 'Date',
  serialize: (value) => value as string,
  parseValue: (value) => {
    if (typeof value !== 'string' || !DATE.test(value)) throw new GraphQLError('Date must be YYYY-MM-DD');
    return value;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || !DATE.test(ast.value)) throw new GraphQLError('Date must be YYYY-MM-DD');
    return ast.value;
  },
});

/**
 * graphql-tools copies every property of a GraphQLScalarType onto the SDL's scalar, its empty
 * description too: hand it only the functions, so the description written in the SDL survives
 * into the executable schema (and introspection).
 */
const behaviourOf = (scalar: GraphQLScalarType): GraphQLScalarType =>
  ({ serialize: scalar.serialize, parseValue: scalar.parseValue, parseLiteral: scalar.parseLiteral }) as unknown as GraphQLScalarType;

export const DateTimeScalar = behaviourOf(DateTime);
export const DateScalar = behaviourOf(DateType);
