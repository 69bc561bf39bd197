import { CTX_PARAM_METADATA, DESIGN_PARAMTYPES, PARAMS_METADATA } from '../metadata-keys';
import type { ParamMetadata } from '../decorators/param.decorator';
import type { ManifestToolset } from './manifest-document';
import { toolMethodsOf } from './method-walker';

/**
 * Why `cls` is not the class the manifest entry describes (one sentence), or `undefined` when it is.
 * The manifest is keyed by class name, and another class may share it (a library's toolset): the
 * entry is only used for a class that has every `@Tool` method the manifest lists, each with the
 * `Function.length` and parameter count the compiled method has, and its `@Param` names and `@Ctx`
 * position where the manifest has them. All of it is read from the class once, at startup.
 */
export function manifestMismatch(cls: Function, toolset: ManifestToolset): string | undefined {
  const methods = new Map(toolMethodsOf(cls.prototype).map((method) => [method.methodName, method]));
  for (const [methodName, entry] of Object.entries(toolset.methods)) {
    const method = methods.get(methodName);
    if (!method) return `it has no @Tool method ${methodName}`;
    const declared = (method.prototype as Record<string, Function>)[methodName];
    if (entry.length !== undefined && declared.length !== entry.length) {
      return `${methodName} has ${declared.length} parameters before the first one with a default (Function.length), the manifest ${entry.length}`;
    }
    const types: unknown[] | undefined = Reflect.getMetadata(DESIGN_PARAMTYPES, method.prototype, methodName);
    if (entry.parameterCount !== undefined && types && types.length !== entry.parameterCount) {
      return `${methodName} has ${types.length} parameters, the manifest ${entry.parameterCount}`;
    }
    const params: (ParamMetadata | undefined)[] = Reflect.getOwnMetadata(PARAMS_METADATA, method.prototype, methodName) ?? [];
    for (const [index, param] of params.entries()) {
      if (!param) continue;
      const recorded = entry.parameters.find((parameter) => parameter.index === index);
      if (entry.contextIndex === index) return `${methodName}'s parameter ${index + 1} is @Param('${param.name}'), the manifest's is the context`;
      if (recorded && recorded.name !== param.name) return `${methodName}'s parameter ${index + 1} is @Param('${param.name}'), the manifest's is ${recorded.name}`;
    }
    const contextIndexes: number[] = Reflect.getOwnMetadata(CTX_PARAM_METADATA, method.prototype, methodName) ?? [];
    for (const index of contextIndexes) {
      const recorded = entry.parameters.find((parameter) => parameter.index === index);
      if (recorded) return `${methodName}'s parameter ${index + 1} is @Ctx(), the manifest's is ${recorded.name}`;
    }
  }
  return undefined;
}
