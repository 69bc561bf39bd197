import type * as OtelApi from '@opentelemetry/api';

// `@opentelemetry/api` costs about as much to import as a third of core itself (47 modules), and most
// runs trace nothing. It is required on first use instead, and not at all while nothing could record a
// span: no tracer given to the runner and no global tracer provider registered.

/** The OpenTelemetry API module. */
export type OtelApiModule = typeof OtelApi;

let api: OtelApiModule | undefined;

/** `@opentelemetry/api`, loaded on first use. */
export function loadOtelApi(): OtelApiModule {
  return (api ??= require('@opentelemetry/api') as OtelApiModule);
}

// Where every copy of `@opentelemetry/api` 1.x keeps its global registrations (the API's own
// cross-copy registry, `Symbol.for('opentelemetry.js.api.<major>')`). Reading it tells whether any SDK
// registered a global tracer provider without loading the API.
const GLOBAL_API_KEY = Symbol.for('opentelemetry.js.api.1');

/** True once some copy of the OpenTelemetry API has a global tracer provider registered. */
export function globalTracerProviderRegistered(): boolean {
  const globals = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[GLOBAL_API_KEY];
  return globals?.trace !== undefined;
}
