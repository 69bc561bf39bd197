/** Every reflect-metadata key Toolsmith writes, in one place. Decorators write them; scanners read them. */
export const TOOLSET_METADATA = 'toolsmith:toolset';
export const TOOL_METADATA = 'toolsmith:tool';
export const PARAMS_METADATA = 'toolsmith:params';
export const CTX_PARAM_METADATA = 'toolsmith:ctx-param';
export const DTO_PROPERTY_METADATA = 'toolsmith:dto-property';
/** Written by TypeScript itself when `emitDecoratorMetadata` is on. */
export const DESIGN_PARAMTYPES = 'design:paramtypes';
export const DESIGN_TYPE = 'design:type';
export const DESIGN_RETURNTYPE = 'design:returntype';
/** Constructor-parameter injection tokens set with `@Inject(token)`: index → token. */
export const INJECT_METADATA = 'toolsmith:inject';
/** Written by `@Injectable()`: a plain class the container may build without a provider entry. */
export const INJECTABLE_METADATA = 'toolsmith:injectable';
/** DTO classes marked with `@UseClassValidator()`: class-validator also runs after the JSON Schema check. */
export const USE_CLASS_VALIDATOR_METADATA = 'toolsmith:use-class-validator';
/** `'standard'` on a class whose Toolsmith class decorator ran as a standard (TC39) decorator. */
export const DECORATOR_MODE_METADATA = 'toolsmith:decorator-mode';
/** Written by `@Resource()`: a method that returns the contents of one resource (a fixed URI). */
export const RESOURCE_METADATA = 'toolsmith:resource';
/** Written by `@ResourceTemplate()`: a method that returns the contents of the resources a URI template matches. */
export const RESOURCE_TEMPLATE_METADATA = 'toolsmith:resource-template';
/** Written by `@Prompt()`: a method that returns a prompt's messages. */
export const PROMPT_METADATA = 'toolsmith:prompt';
/** Written by `@Complete()`: a method that suggests values for an argument of a prompt or resource template. */
export const COMPLETE_METADATA = 'toolsmith:complete';
