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
