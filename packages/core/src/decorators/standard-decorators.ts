import { InvalidDecoratorError } from '../errors/invalid-decorator-error';
import { decoratorNotOnMethodMessage, standardDecoratorWithoutMetadataMessage } from '../errors/messages';
import type { ToolsmithMethodDecorator } from './decorator-types';
import { DECORATOR_MODE_METADATA } from '../metadata-keys';

// TypeScript's standard decorators get `context.metadata` only where `Symbol.metadata` exists (TypeScript
// asks for this polyfill; Node.js has no `Symbol.metadata` yet). esbuild falls back to the same
// `Symbol.for('Symbol.metadata')`, so code from tsc, esbuild, tsx and vitest shares one key.
(Symbol as { metadata?: symbol }).metadata ??= Symbol.for('Symbol.metadata');

/** Where method metadata of standard decorators lives in a class's `Symbol.metadata` object: metadata key → member → value. */
const MEMBER_METADATA = Symbol.for('toolsmith:member-metadata');
type MemberMetadata = Map<string, Map<string | symbol, unknown>>;

/**
 * True when a decorator was called as a standard (TC39) decorator: its second argument is the
 * decorator context (`{ kind, name, metadata, … }`). Legacy (`experimentalDecorators`) decorators get a
 * property key (or nothing) there.
 */
export function isDecoratorContext(value: unknown): value is DecoratorContext {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

/**
 * Records a class decorator's metadata on the class in both modes (a class decorator gets the class
 * itself in both), plus which mode defined the class, for the container's error messages.
 */
export function defineClassMetadata(key: string, value: unknown, target: Function, context: unknown): void {
  Reflect.defineMetadata(key, value, target);
  if (isDecoratorContext(context)) Reflect.defineMetadata(DECORATOR_MODE_METADATA, 'standard', target);
}

/**
 * Records a standard method decorator's metadata in the class's `context.metadata` (a standard method
 * decorator never sees the prototype); {@link getOwnMemberMetadata} reads it back for the scanner.
 */
export function defineMemberMetadata(context: ClassMethodDecoratorContext, key: string, value: unknown, decorator: string): void {
  const metadata = context.metadata as Record<symbol, unknown> | undefined;
  if (!metadata) throw new InvalidDecoratorError(standardDecoratorWithoutMetadataMessage(decorator, String(context.name)));
  let members = (Object.hasOwn(metadata, MEMBER_METADATA) ? metadata[MEMBER_METADATA] : undefined) as MemberMetadata | undefined;
  if (!members) {
    members = new Map();
    metadata[MEMBER_METADATA] = members;
  }
  let byMember = members.get(key);
  if (!byMember) members.set(key, (byMember = new Map()));
  byMember.set(context.name, value);
}

/**
 * The metadata one decorator recorded for `member` of the class whose prototype is `prototype`, in
 * either mode: reflect-metadata on the prototype (legacy decorators), else the class's own
 * `Symbol.metadata` (standard decorators). Inherited entries are not returned: callers walk the chain.
 */
export function getOwnMemberMetadata<T>(key: string, prototype: object, member: string | symbol): T | undefined {
  const legacy: T | undefined = Reflect.getOwnMetadata(key, prototype, member);
  if (legacy !== undefined || !Object.hasOwn(prototype, 'constructor')) return legacy;
  const cls: unknown = (prototype as { constructor: unknown }).constructor;
  const metadataKey = (Symbol as { metadata?: symbol }).metadata!;
  if (typeof cls !== 'function' || !Object.hasOwn(cls, metadataKey)) return undefined;
  const metadata = (cls as unknown as Record<symbol, unknown>)[metadataKey] as Record<symbol, unknown> | null;
  if (!metadata || !Object.hasOwn(metadata, MEMBER_METADATA)) return undefined;
  return (metadata[MEMBER_METADATA] as MemberMetadata).get(key)?.get(member) as T | undefined;
}

/** True when `target` was defined with standard decorators (a Toolsmith class decorator recorded it). */
export function usesStandardDecorators(target: Function): boolean {
  return Reflect.getOwnMetadata(DECORATOR_MODE_METADATA, target) === 'standard';
}

/**
 * A method decorator (both modes) that only records `value` under `key` for the scanner, as `@Tool()`
 * does; `decorator` names it in the error for a misplaced use (a field, a static or `#private` method).
 */
export function recordingMethodDecorator(decorator: string, key: string, value: unknown): ToolsmithMethodDecorator {
  return ((target: unknown, member: string | symbol | DecoratorContext) => {
    if (isDecoratorContext(member)) {
      if (member.kind !== 'method' || member.static || member.private) {
        throw new InvalidDecoratorError(decoratorNotOnMethodMessage(decorator, member));
      }
      defineMemberMetadata(member, key, value, decorator);
      return;
    }
    Reflect.defineMetadata(key, value, target as object, member);
  }) as ToolsmithMethodDecorator;
}
