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
 * True when `type` still has a type parameter in it (`T`, `T[]`, `{ key: T }`, `Box<T>`, and the types
 * built from one: `T extends string ? 'S' : 'N'`, `Uppercase<T>`, `keyof T`, `T['k']`, `` `id-${T}` ``,
 * `{ [K in keyof T]: … }`, `(value: T) => void`): a generic tool whose class does not fix it. Its schema
 * would be a guess, so the generator refuses it.
 */
export function mentionsTypeParameter(checker: ts.TypeChecker, type: ts.Type): boolean {
  const seen = new Set<ts.Type>();
  const isOwn = (symbol: ts.Symbol) => {
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    return declaration !== undefined && !declaration.getSourceFile().hasNoDefaultLib;
  };
  const visitSignature = (signature: ts.Signature): boolean =>
    (signature.typeParameters?.length ?? 0) > 0 ||
    signature.parameters.some((parameter) => visit(checker.getTypeOfSymbol(parameter))) ||
    visit(checker.getReturnTypeOfSignature(signature));
  const visit = (current: ts.Type): boolean => {
    if (seen.has(current)) return false;
    seen.add(current);
    if (current.flags & ts.TypeFlags.TypeParameter) return true;
    if ((current.aliasTypeArguments ?? []).some(visit)) return true;
    if (current.isUnionOrIntersection()) return current.types.some(visit);
    // A conditional type is left unresolved only while its checked or extends type is generic.
    if (current.flags & ts.TypeFlags.Conditional) return true;
    if (current.flags & ts.TypeFlags.Substitution) return visit((current as ts.SubstitutionType).baseType);
    if (current.flags & ts.TypeFlags.Index) return visit((current as ts.IndexType).type);
    if (current.flags & ts.TypeFlags.IndexedAccess) {
      const access = current as ts.IndexedAccessType;
      return visit(access.objectType) || visit(access.indexType);
    }
    if (current.flags & ts.TypeFlags.TemplateLiteral) return (current as ts.TemplateLiteralType).types.some(visit);
    if (current.flags & ts.TypeFlags.StringMapping) return visit((current as ts.StringMappingType).type);
    if (!(current.flags & ts.TypeFlags.Object)) return false;
    const object = current as ts.ObjectType;
    if ((object.objectFlags & ts.ObjectFlags.Reference) !== 0 && checker.getTypeArguments(object as ts.TypeReference).some(visit)) return true;
    if (object.objectFlags & ts.ObjectFlags.Mapped) {
      // A generic mapped type (`{ [K in keyof T]: T[K] }`) has no members to look at: its key and value types say it.
      // They are the checker's own fields (no public accessor); members are resolved first, which sets them.
      checker.getPropertiesOfType(current);
      const mapped = current as unknown as { constraintType?: ts.Type; templateType?: ts.Type };
      if ([mapped.constraintType, mapped.templateType].some((part) => part !== undefined && visit(part))) return true;
    }
    for (const info of checker.getIndexInfosOfType(current)) if (visit(info.keyType) || visit(info.type)) return true;
    const symbol = current.aliasSymbol ?? current.getSymbol();
    if ((symbol === undefined || isOwn(symbol)) && [...current.getCallSignatures(), ...current.getConstructSignatures()].some(visitSignature)) return true;
    return checker.getPropertiesOfType(current).some((property) => isOwn(property) && visit(checker.getTypeOfSymbol(property)));
  };
  return visit(type);
}
