import * as ts from 'typescript';
import type { FoundTool, FoundToolset } from './find-toolsets';

/**
 * A `@Tool` method's parameter and return types as a member of its toolset class: for a method
 * inherited from a generic base (`class UserRepo extends Repo<number>`, `get(key: T)`), with the
 * subclass's type arguments put in (`key: number`). A type written without type parameters is the
 * written one, as the checker reads it.
 */
export class ToolSignature {
  private readonly member: ts.Signature | undefined;

  constructor(
    private readonly checker: ts.TypeChecker,
    toolset: FoundToolset,
    private readonly tool: FoundTool,
  ) {
    const classSymbol = toolset.declaration.name && checker.getSymbolAtLocation(toolset.declaration.name);
    const property = classSymbol && checker.getPropertyOfType(checker.getDeclaredTypeOfSymbol(classSymbol), tool.methodName);
    this.member = property && checker.getTypeOfSymbol(property).getCallSignatures().find((signature) => signature.declaration === tool.declaration);
  }

  /** The type of the parameter at `index` (without the `undefined` an optional parameter adds). */
  parameterType(index: number): ts.Type {
    const parameter = this.tool.declaration.parameters[index];
    const written = parameter.type ? this.checker.getTypeFromTypeNode(parameter.type) : this.checker.getTypeAtLocation(parameter);
    const symbol = this.member?.parameters[index];
    if (!symbol || !mentionsTypeParameter(this.checker, written)) return written;
    const type = this.checker.getTypeOfSymbol(symbol);
    if (!parameter.questionToken || !type.isUnion()) return type;
    // `key?: T` reads `T | undefined` once instantiated; the schema is of `T` (optionality is the manifest's `optional`).
    const defined = type.types.filter((member) => !(member.flags & ts.TypeFlags.Undefined));
    return defined.length === 1 ? defined[0] : type;
  }

  /** The declared return type, instantiated as {@link parameterType} is. */
  returnType(): ts.Type | undefined {
    const signature = this.member ?? this.checker.getSignatureFromDeclaration(this.tool.declaration);
    return signature && this.checker.getReturnTypeOfSignature(signature);
  }
}

/**
 * True when `type` still has a type parameter in it (`T`, `T[]`, `{ key: T }`, `Box<T>`): a generic
 * tool whose class does not fix it. Its schema would be a guess, so the generator refuses it.
 */
export function mentionsTypeParameter(checker: ts.TypeChecker, type: ts.Type): boolean {
  const seen = new Set<ts.Type>();
  const visit = (current: ts.Type): boolean => {
    if (seen.has(current)) return false;
    seen.add(current);
    if (current.flags & ts.TypeFlags.TypeParameter) return true;
    if ((current.aliasTypeArguments ?? []).some(visit)) return true;
    if (current.isUnionOrIntersection()) return current.types.some(visit);
    if (!(current.flags & ts.TypeFlags.Object)) return false;
    const reference = current as ts.TypeReference;
    if ((reference.objectFlags & ts.ObjectFlags.Reference) !== 0 && checker.getTypeArguments(reference).some(visit)) return true;
    for (const info of checker.getIndexInfosOfType(current)) if (visit(info.type)) return true;
    return checker.getPropertiesOfType(current).some((property) => {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      return declaration !== undefined && !declaration.getSourceFile().hasNoDefaultLib && visit(checker.getTypeOfSymbol(property));
    });
  };
  return visit(type);
}
