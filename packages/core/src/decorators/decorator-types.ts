/**
 * What Toolsmith's class decorators (`@Toolset`, `@Injectable`) are: usable with TypeScript's standard
 * decorators (the default of TypeScript 5 and 7, esbuild, tsx and vitest) and with legacy decorators
 * (`"experimentalDecorators": true`, as NestJS apps compile).
 */
export interface ToolsmithClassDecorator {
  /** Called by the compiled class: with the class alone (legacy decorators), or with it and its decorator context (standard decorators). */
  (target: Function, context?: ClassDecoratorContext): void;
}

/**
 * What `@Tool()` is: a method decorator usable with TypeScript's standard decorators and with legacy
 * decorators (`"experimentalDecorators": true`). Only on instance methods; a field, accessor, static or
 * `#private` method does not compile in standard mode (and throws `INVALID_DECORATOR` where it runs).
 */
export interface ToolsmithMethodDecorator {
  /** Legacy decorators: the prototype, the method's name and its property descriptor. */
  (target: object, propertyKey: string | symbol, descriptor?: PropertyDescriptor): void;
  /** Standard decorators: the method and its decorator context. */
  (value: Function, context: ClassMethodDecoratorContext): void;
}
