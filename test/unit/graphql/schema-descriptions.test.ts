/**
 * What clients read through introspection: every description written in schema/*.graphql must
 * survive into the executable schema (resolvers, scalars and directives applied), unchanged.
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import { isInputObjectType, isInterfaceType, isObjectType, type GraphQLNamedType } from 'graphql';
import { createSchema, loadTypeDefs } from '../../../src/graphql/schema.js';

/** Each type's description, and each field's and argument's, keyed by their path. */
function descriptions(types: readonly GraphQLNamedType[]): Map<string, string | null | undefined> {
  const out = new Map<string, string | null | undefined>();
  for (const type of types) {
    if (type.name.startsWith('__')) continue;
    out.set(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        out.set(`${type.name}.${field.name}`, field.description);
        for (const arg of 'args' in field ? field.args : []) out.set(`${type.name}.${field.name}(${arg.name})`, arg.description);
      }
    }
  }
  return out;
}

it('every description of the SDL is in the executable schema, scalars included', () => {
  const written = descriptions(Object.values(makeExecutableSchema({ typeDefs: loadTypeDefs() }).getTypeMap()));
  const served = descriptions(Object.values(createSchema().getTypeMap()));
  expect([...written].filter(([, d]) => d).length).toBeGreaterThan(50);
  expect(Object.fromEntries(served)).toEqual(Object.fromEntries(written));
  expect(served.get('DateTime')).toMatch(/ISO 8601 UTC timestamp with milliseconds/);
  expect(served.get('Date')).toMatch(/YYYY-MM-DD/);
});
