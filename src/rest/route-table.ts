/**
 * One route table per facade: each GET route named once, with its parameters, its GraphQL
 * operation and the reshaping into the variant's envelope. Express routing, the OpenAPI
 * document and the contract tests are all derived from it.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Variant } from '../domain/variant.js';
import type { z } from 'zod';
import type { RouteCachePolicy } from '../graphql/answers/kept-answers.js';
import type { ParamSpec } from './params.js';

// biome-ignore lint/suspicious/noExplicitAny: a table holds routes of different operations; defineRoute types each one.
export interface RouteDefinition<TData = any, TVariables = any> {
  /** Path under /api/v1, e.g. `/markets`. */
  path: string;
  summary: string;
  description: string;
  params: readonly ParamSpec[];
  operation: TypedDocumentNode<TData, TVariables>;
  /** Validated parameters -> operation variables. */
  // biome-ignore lint/suspicious/noExplicitAny: the parameters were validated by the route's own specs, typed per route.
  variables(params: Record<string, any>): TVariables;
  /** Operation result -> the 200 body in the variant's envelope. */
  // biome-ignore lint/suspicious/noExplicitAny: as for variables.
  reshape(data: TData, params: Record<string, any>): unknown;
  /** The 200 body, for OpenAPI. */
  responseSchema: z.ZodType;
  /** Set on routes whose answer depends only on versioned shared data (not on the caller): cached and ETagged. */
  cache?: RouteCachePolicy;
}

/** Keeps the generic link between a route's operation and its callbacks. */
export function defineRoute<TData, TVariables>(route: RouteDefinition<TData, TVariables>): RouteDefinition<TData, TVariables> {
  return route;
}

/** How refusals name a route: `GET /api/v1/brief`. */
export const routeWhat = (path: string) => `GET /api/v1${path}`;

/** A route's id in usage records and LEGACY_DEPRECATIONS: `A GET /api/v1/brief`. */
export const routeIdOf = (variant: Variant, path: string) => `${variant} ${routeWhat(path)}`;
