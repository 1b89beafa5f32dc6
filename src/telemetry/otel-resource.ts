/**
 * The resource every signal of this process is exported with (traces, metrics), for the lazily
 * loaded SDK modules: each imports it without loading the other's SDK.
 */
import { parseKeyPairsIntoRecord } from '@opentelemetry/core';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import type { OtelEnv } from './types.js';

/** OTEL_SERVICE_NAME over OTEL_RESOURCE_ATTRIBUTES' service.name over market-gateway. */
export function resourceOf(env: OtelEnv) {
  const attributes: Record<string, string> = { 'service.name': 'market-gateway', ...parseKeyPairsIntoRecord(env.OTEL_RESOURCE_ATTRIBUTES) };
  if (env.OTEL_SERVICE_NAME) attributes['service.name'] = env.OTEL_SERVICE_NAME;
  return defaultResource().merge(resourceFromAttributes(attributes));
}
