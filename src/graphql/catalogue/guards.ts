/**
 * Limits on what one GraphQL document may ask for, checked when the catalogue parses and validates
 * it, so an abusive query is a 400 before any resolver runs (GraphQL Armor's rules, graphql-js's
 * token cap). Every transport finds its operation in the catalogue, so all apply the same ones.
 */
import { ApolloArmor } from '@escape.tech/graphql-armor';
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

/** GraphQL Armor's validation rules for the limits above (its Apollo plugins are all off here). */
export function guardRules(): ValidationRule[] {
  const armor = new ApolloArmor({
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth },
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
    costLimit: { maxCost: GRAPHQL_LIMITS.maxCost },
    // graphql-js's own parser enforces the token cap (the catalogue's parse).
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: false },
  });
  return armor.protect().validationRules as ValidationRule[];
}
