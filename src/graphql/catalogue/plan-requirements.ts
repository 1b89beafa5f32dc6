/**
 * D12: an operation needs the plans that its fields declare with `@requiresPlan`. The check runs
 * once per operation, before any resolver, and the REST facade derives each route's plan from
 * its operation with the same function, so REST and GraphQL cannot disagree.
 */
import { getDirective } from '@graphql-tools/utils';
import { type ASTNode, type DocumentNode, type GraphQLSchema, isObjectType, type OperationDefinitionNode, TypeInfo, visit, visitWithTypeInfo } from 'graphql';
import type { Product } from '../../domain/account.js';
import { TIER_RANK, type PlanRequirements, type PlanTier } from '../../domain/plans.js';

const PRODUCT_OF: Record<string, Product> = { MARKET_DATA: 'marketData', PREDICTION: 'prediction' };

export type FieldRequirements = Map<string, { product: Product; tier: PlanTier }>;

export function collectFieldRequirements(schema: GraphQLSchema): FieldRequirements {
  const out: FieldRequirements = new Map();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const directive = getDirective(schema, field, 'requiresPlan')?.[0];
      if (!directive) continue;
      out.set(`${type.name}.${field.name}`, {
        product: PRODUCT_OF[directive.product as string]!,
        tier: directive.plan as PlanTier,
      });
    }
  }
  return out;
}

export interface OperationAnalysis {
  requirements: PlanRequirements;
  /** Fields other than introspection and `__typename` are read: a key is needed. */
  readsData: boolean;
  /** `__schema` or `__type` is asked for (`__typename` is not introspection). */
  readsIntrospection: boolean;
  /** Every data field the operation reads, as `Type.field` (what its answer depends on). */
  reads: ReadonlySet<string>;
}

export function analyzeOperation(
  schema: GraphQLSchema,
  fields: FieldRequirements,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): OperationAnalysis {
  const requirements: PlanRequirements = {};
  let readsData = false;
  let readsIntrospection = false;
  const reads = new Set<string>();
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d] as const] : [])));
  const seenFragments = new Set<string>();

  // Each fragment is walked once, with its own TypeInfo (its type condition sets the context).
  function walk(node: ASTNode): void {
    const typeInfo = new TypeInfo(schema);
    visit(
      node,
      visitWithTypeInfo(typeInfo, {
        Field(field) {
          const parent = typeInfo.getParentType();
          if (!parent) return;
          const name = field.name.value;
          // Introspection (`__schema`, and every field of the `__*` types under it) reads no data.
          if (!name.startsWith('__') && !parent.name.startsWith('__')) {
            readsData = true;
            reads.add(`${parent.name}.${name}`);
          } else if (name !== '__typename') readsIntrospection = true;
          const requirement = fields.get(`${parent.name}.${name}`);
          if (!requirement) return;
          const current = requirements[requirement.product];
          if (!current || TIER_RANK[requirement.tier] > TIER_RANK[current]) {
            requirements[requirement.product] = requirement.tier;
          }
        },
        FragmentSpread(spread) {
          const fragment = fragments.get(spread.name.value);
          if (!fragment || seenFragments.has(spread.name.value)) return;
          seenFragments.add(spread.name.value);
          walk(fragment);
        },
      }),
    );
  }
  walk(operation);
  return { requirements, readsData, readsIntrospection, reads };
}
