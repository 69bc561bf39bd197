import { BaseTool, type ContainerAdapter, type InjectionToken, OfferingDefinitionError, isToolset } from '@toolsmith/core';
import { type ClassOfferings, type InstanceScope, type OfferedMethod, instanceFromContainer, scanClassOfferings, uriTemplateShape } from '@toolsmith/core/internal';
import type { ServedTools } from './resolve-served-tools';

/** One decorated method ready to run: what the class declared, and the object it runs on. */
export interface ServedOffering<T extends OfferedMethod<unknown>> {
  /** The scanned method. */
  readonly offered: T;
  /** The instance the method runs on (built by the container on first use). */
  readonly instanceFor: (scope: InstanceScope) => object | Promise<object>;
}

/** Everything `serveMcp` offers besides tools, from every served class, checked for clashes at startup. */
export interface ServedOfferings {
  readonly resources: readonly ServedOffering<ClassOfferings['resources'][number]>[];
  readonly resourceTemplates: readonly ServedOffering<ClassOfferings['resourceTemplates'][number]>[];
  readonly prompts: readonly ServedOffering<ClassOfferings['prompts'][number]>[];
  readonly completions: readonly ServedOffering<ClassOfferings['completions'][number]>[];
}

/**
 * Scans the served classes and instances for resources, resource templates, prompts and completions,
 * each bound to its instance from `container` (the one that builds the tools' classes). Two classes that
 * offer one URI or prompt name fail with {@link OfferingDefinitionError}.
 */
export function resolveServedOfferings(items: readonly ServedTools[], container: ContainerAdapter): ServedOfferings {
  const offerings = { resources: [], resourceTemplates: [], prompts: [], completions: [] } as {
    -readonly [K in keyof ServedOfferings]: ServedOfferings[K][number][];
  };
  for (const item of items) {
    if (item instanceof BaseTool || isToolset(item)) continue;
    if (typeof item !== 'function' && (typeof item !== 'object' || item === null)) continue;
    const cls = typeof item === 'function' ? item : (item.constructor as Function);
    const scanned = scanClassOfferings(cls);
    if (!scanned.resources.length && !scanned.resourceTemplates.length && !scanned.prompts.length && !scanned.completions.length) continue;
    const instanceFor = typeof item === 'function' ? instanceFromContainer(item as InjectionToken<object>, container) : () => item;
    offerings.resources.push(...scanned.resources.map((offered) => ({ offered, instanceFor })));
    offerings.resourceTemplates.push(...scanned.resourceTemplates.map((offered) => ({ offered, instanceFor })));
    offerings.prompts.push(...scanned.prompts.map((offered) => ({ offered, instanceFor })));
    offerings.completions.push(...scanned.completions.map((offered) => ({ offered, instanceFor })));
  }
  // Templates by shape: two that differ only in their variables' names match the same URIs.
  checkUnique(offerings.resources.map((r) => r.offered.options.uri).concat(offerings.resourceTemplates.map((t) => t.offered.options.uriTemplate)), 'DUPLICATE_RESOURCE_URI', 'resource URI', uriTemplateShape);
  checkUnique(offerings.prompts.map((p) => p.offered.name), 'DUPLICATE_PROMPT_NAME', 'prompt name');
  return offerings;
}

/** True when nothing besides tools is offered. */
export function offersNothing(offerings: ServedOfferings): boolean {
  return !offerings.resources.length && !offerings.resourceTemplates.length && !offerings.prompts.length;
}

function checkUnique(keys: readonly string[], code: 'DUPLICATE_RESOURCE_URI' | 'DUPLICATE_PROMPT_NAME', what: string, keyOf: (key: string) => string = (key) => key): void {
  const seen = new Map<string, string>();
  for (const key of keys) {
    const first = seen.get(keyOf(key));
    if (first !== undefined && first !== key) {
      throw new OfferingDefinitionError(code, `serveMcp offers two of ${what} "${first}" and "${key}" (from two classes), which match the same URIs. Fix: give one another ${what}.`, { className: 'serveMcp' });
    }
    if (first !== undefined) {
      throw new OfferingDefinitionError(code, `serveMcp offers two of ${what} "${key}" (from two classes). Fix: give one another ${what}.`, { className: 'serveMcp' });
    }
    seen.set(keyOf(key), key);
  }
}
