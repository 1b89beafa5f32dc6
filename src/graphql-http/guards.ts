/**
 * Limits on what one GraphQL document may ask for, checked at parse and validation time, so an
 * abusive query is a 400 before any resolver runs (GraphQL Armor's rules, graphql-js's token cap).
 * Apollo and the compiled fast path apply the same ones. (Field suggestions are masked by the shared
 * error formatter, createErrorFormatter in apollo-server.ts, so both paths mask them alike.)
 */
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { ApolloServerPlugin } from '@apollo/server';
import type { ValidationRule } from 'graphql';

export const GRAPHQL_LIMITS = {
  /** Lexical tokens per document: caps parse work before anything else happens. */
  maxTokens: 2_000,
  /** Nesting of selections; the deepest legitimate query (alert → market → field) is 4. */
  maxDepth: 8,
  maxAliases: 15,
  maxDirectives: 20,
  /**
   * GraphQL Armor's cost: objects 2, scalars 1, times 1.5 per level of depth. A dashboard asking
   * for both lists costs about 30; fifteen aliased copies of the alert list with their markets, 716.
   */
  maxCost: 500,
} as const;

export interface GraphQLGuards {
  validationRules: ValidationRule[];
  plugins: ApolloServerPlugin[];
  parseOptions: { maxTokens: number };
}

export function graphqlGuards(): GraphQLGuards {
  const armor = new ApolloArmor({
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth },
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
    costLimit: { maxCost: GRAPHQL_LIMITS.maxCost },
    // graphql-js's own parser enforces the token cap (parseOptions): a clean 400 from Apollo.
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: false },
  });
  const { plugins, validationRules } = armor.protect();
  return {
    plugins: plugins as ApolloServerPlugin[],
    validationRules: validationRules as ValidationRule[],
    parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
  };
}
