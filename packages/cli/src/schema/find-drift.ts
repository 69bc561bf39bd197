import type { JsonSchema } from '@toolsmith/core';
import type { ManifestDocument } from '@toolsmith/core/internal';
import * as ts from 'typescript';
import { comesFromClassValidator, dtoClassName } from './dto-parameters';
import { type FoundToolset, baseClassOf, findDecorator, location, resolvedName, visitProjectSources } from './find-toolsets';

/** One disagreement between a TypeScript type and what the runtime is told about it, found by `toolsmith schema --check`. */
export interface Drift {
  /** `file.ts:line:column` of the declaration at fault. */
  at: string;
  /** What disagrees, and what happens at runtime because of it. */
  problem: string;
  /** What to change. */
  fix: string;
}

/**
 * Finds the drift that runtime reflection cannot see, in the project's sources:
 * - a `@Param` whose TypeScript type is a literal union (`'open' | 'shipped'`) but which gives no `enum`
 *   (without the manifest, reflection sees `String` and any string passes);
 * - a `@Param` whose `enum` or literal `schema` disagrees with its TypeScript type, or whose Standard
 *   Schema outputs a type the parameter's type does not admit;
 * - a class-validator DTO property with no class-validator decorator (it silently leaves the schema);
 * - an `@IsOptional()` DTO property whose type does not admit `null` (class-validator lets `null` through);
 * - a constructor dependency of a `@Toolset` or `@Injectable` class typed with an `import type`d class or
 *   an interface, with no `@Inject` and not named by the class's `inject` list (the compiled metadata says `Object`).
 * `document` is the manifest generated from the same program (the TypeScript side of each parameter).
 */
export function findDrift(program: ts.Program, toolsets: readonly FoundToolset[], document: ManifestDocument): Drift[] {
  const checker = program.getTypeChecker();
  const found = new Map<string, Drift>();
  const add = (drift: Drift) => found.set(`${drift.at} ${drift.problem}`, drift);
  const dtos = new Set<ts.ClassLikeDeclaration>();

  for (const toolset of toolsets) {
    for (const tool of toolset.tools) {
      const where = `${toolset.className}.${tool.methodName}`;
      const manifestParameters = document.toolsets[toolset.className]?.methods[tool.methodName]?.parameters ?? [];
      tool.declaration.parameters.forEach((parameter, index) => {
        if (dtoClassName(checker, parameter) !== undefined) {
          const dto = classDeclarationOf(checker.getTypeAtLocation(parameter));
          if (dto) dtos.add(dto);
          return;
        }
        const entry = manifestParameters.find((p) => p.index === index);
        if (entry) paramDrift(checker, parameter, entry.schema, `${where}, parameter ${entry.name}`).forEach(add);
      });
    }
  }
  const checked = new Set<ts.ClassLikeDeclaration>();
  for (const dto of dtos) dtoDrift(checker, dto, checked).forEach(add);

  const injectables = new Set<ts.ClassDeclaration>(toolsets.map((toolset) => toolset.declaration));
  visitProjectSources(program, (node) => {
    if (ts.isClassDeclaration(node) && findDecorator(checker, node, 'Injectable')) injectables.add(node);
  });
  // Standard decorators have no parameter decorators: there, a token goes in the class's inject list.
  const standardDecorators = !program.getCompilerOptions().experimentalDecorators;
  for (const declaration of injectables) injectionDrift(checker, declaration, standardDecorators).forEach(add);
  return [...found.values()].sort((a, b) => a.at.localeCompare(b.at, 'en', { numeric: true }));
}

function paramDrift(checker: ts.TypeChecker, parameter: ts.ParameterDeclaration, typeSchema: JsonSchema, subject: string): Drift[] {
  const decorator = findDecorator(checker, parameter, 'Param');
  if (!decorator || !ts.isCallExpression(decorator.expression)) return [];
  const [first, second] = decorator.expression.arguments;
  const name = first && ts.isStringLiteralLike(first) ? first.text : parameter.name.getText();
  const options = second && ts.isObjectLiteralExpression(second) ? propertiesOf(second) : new Map<string, ts.Expression>();
  const at = location(parameter.getSourceFile(), parameter);
  const parameterType = checker.getTypeAtLocation(parameter);
  const typeText = checker.typeToString(parameterType);
  const typeValues = valuesOf(typeSchema);
  const drifts: Drift[] = [];

  const schemaExpression = options.get('schema');
  if (schemaExpression === undefined) {
    const enumExpression = options.get('enum');
    if (enumExpression === undefined) {
      if (typeValues) {
        drifts.push({
          at,
          problem: `${subject}: its type is ${typeText}, but @Param('${name}') gives no enum, so without the manifest reflection sees only ${reflectedName(typeValues)} and the tool accepts any ${jsonTypeName(typeValues)}`,
          fix: `@Param('${name}', { enum: ${JSON.stringify(typeValues)} })`,
        });
      }
      return drifts;
    }
    const listed = literalJson(checker, enumExpression);
    if (Array.isArray(listed)) {
      const outside = listed.filter((value) => !accepts(typeSchema, value));
      if (outside.length > 0) {
        drifts.push({
          at,
          problem: `${subject}: @Param('${name}') allows ${outside.map((v) => JSON.stringify(v)).join(', ')} in its enum, which its type ${typeText} does not`,
          fix: `make the enum and the type list the same values${typeValues ? ` (${JSON.stringify(typeValues)})` : ''}`,
        });
      }
    }
    return drifts;
  }

  const explicit = literalJson(checker, schemaExpression);
  if (typeof explicit !== 'object' || explicit === null || Array.isArray(explicit)) {
    // Not a literal: a Standard Schema (zod, valibot, arktype) says in its type what it outputs.
    const output = standardSchemaOutput(checker, schemaExpression);
    if (output && !checker.isTypeAssignableTo(output, parameterType)) {
      drifts.push({
        at,
        problem: `${subject}: its Standard Schema outputs ${checker.typeToString(output)}, but its type is ${typeText}, so the tool receives values its type rules out`,
        fix: `make the schema output ${typeText}, or type the parameter with the schema's output type`,
      });
    }
    return drifts;
  }
  const schema = explicit as JsonSchema;
  const explicitTypes = typesOf(schema);
  const allowedTypes = typesOf(typeSchema);
  const extraTypes = explicitTypes && allowedTypes ? explicitTypes.filter((t) => !allowedTypes.includes(t === 'integer' ? 'number' : t) && !allowedTypes.includes(t)) : [];
  const explicitValues = valuesOf(schema);
  const extraValues = explicitValues ? explicitValues.filter((value) => !accepts(typeSchema, value)) : [];
  const problems: string[] = [];
  if (extraTypes.length > 0) problems.push(`its schema allows type ${extraTypes.join(', ')}`);
  if (extraValues.length > 0) problems.push(`its schema allows ${extraValues.map((v) => JSON.stringify(v)).join(', ')}`);
  if (typeValues && !explicitValues && extraTypes.length === 0) problems.push(`its schema allows any ${jsonTypeName(typeValues)}, not only ${JSON.stringify(typeValues)}`);
  if (problems.length > 0) {
    drifts.push({
      at,
      problem: `${subject}: ${problems.join(' and ')}, but its type is ${typeText}`,
      fix: `make the schema and the type say the same (the type's schema is ${JSON.stringify(withoutAnnotations(typeSchema))}), or drop the schema and let the manifest describe the type`,
    });
  }
  return drifts;
}

function dtoDrift(checker: ts.TypeChecker, dto: ts.ClassLikeDeclaration, checked: Set<ts.ClassLikeDeclaration>): Drift[] {
  if (checked.has(dto)) return [];
  checked.add(dto);
  const drifts: Drift[] = [];
  const dtoName = dto.name?.text ?? '(anonymous class)';
  for (let current: ts.ClassLikeDeclaration | undefined = dto; current; current = baseClassOf(checker, current)) {
    for (const member of current.members) {
      if (!ts.isPropertyDeclaration(member) || member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) continue;
      const property = member.name.getText();
      const at = location(member.getSourceFile(), member);
      const decorators = ts.getDecorators(member) ?? [];
      const validators = decorators.filter((decorator) => comesFromClassValidator(checker, decorator));
      if (validators.length === 0) {
        drifts.push({
          at,
          problem: `${dtoName}.${property} has no class-validator decorator, so it is not in the tool's schema: the model is never told about it, and an argument for it is refused as unknown`,
          fix: 'add the decorator that says what it holds (@IsString(), @IsInt(), @IsOptional(), …), @Allow() for any value, or remove the property',
        });
        continue;
      }
      const type = checker.getTypeAtLocation(member);
      const optional = validators.find((decorator) => calleeName(checker, decorator) === 'IsOptional');
      if (optional && !admitsNull(type)) {
        const initializer = member.initializer ? ` instead of its default ${member.initializer.getText()}` : '';
        drifts.push({
          at,
          problem: `${dtoName}.${property} is @IsOptional(), which lets null through (class-validator skips every rule for null), but its type ${checker.typeToString(type)} does not admit null: the tool can receive null${initializer}`,
          fix: `type it ${checker.typeToString(checker.getNonNullableType(type))} | null and handle null, or refuse null: replace @IsOptional() with @ValidateIf((dto) => dto.${property} !== undefined) and put @UseClassValidator() on ${dtoName}`,
        });
      }
      // Nested DTOs (`@ValidateNested() @Type(() => Line) lines: Line[]`) are checked too.
      const present = checker.getNonNullableType(type);
      const element = checker.isArrayType(present) ? checker.getTypeArguments(present as ts.TypeReference)[0] : present;
      const nested = element && classDeclarationOf(element);
      if (nested && hasClassValidatorProperty(checker, nested)) drifts.push(...dtoDrift(checker, nested, checked));
    }
  }
  return drifts;
}

function injectionDrift(checker: ts.TypeChecker, declaration: ts.ClassDeclaration, standardDecorators: boolean): Drift[] {
  const constructor = declaration.members.find(ts.isConstructorDeclaration);
  if (!constructor) return [];
  const className = declaration.name?.text ?? '(anonymous class)';
  const drifts: Drift[] = [];
  // A position the class's `inject: [...]` list names is injected by that token, whatever its type.
  const listed = injectListLength(checker, declaration);
  for (const [index, parameter] of constructor.parameters.entries()) {
    if (index < listed || findDecorator(checker, parameter, 'Inject') || !parameter.type || !ts.isTypeReferenceNode(parameter.type)) continue;
    const at = location(parameter.getSourceFile(), parameter);
    const typeName = parameter.type.typeName.getText();
    const subject = `constructor parameter ${parameter.name.getText()} of ${className} is typed ${typeName}`;
    const symbol = checker.getSymbolAtLocation(parameter.type.typeName);
    if (!symbol) continue;
    const typeOnlyImport = symbol.flags & ts.SymbolFlags.Alias ? typeOnlyImportOf(symbol) : undefined;
    if (typeOnlyImport) {
      drifts.push({
        at,
        problem: `${subject}, imported with \`import type\`: it has no runtime value (the compiled metadata says Function, or Object), so the container cannot tell what to inject`,
        fix: `import it as a value: import { ${typeName} } from ${typeOnlyImport}`,
      });
      continue;
    }
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias) && !(target.flags & ts.SymbolFlags.Class)) {
      drifts.push({
        at,
        problem: `${subject}, ${target.flags & ts.SymbolFlags.Interface ? 'an interface' : 'a type alias'}: it has no runtime value, so the compiled metadata says Object and the container cannot tell what to inject`,
        fix: standardDecorators
          ? `inject it by token: name ${typeName.toUpperCase()}_TOKEN at position ${index} of the class's inject list (@${injectListDecorator(checker, declaration)}({ inject: [...] })) with a provider { provide: ${typeName.toUpperCase()}_TOKEN, useValue: … }, or type it with a class`
          : `inject it by token: @Inject(${typeName.toUpperCase()}_TOKEN) with a provider { provide: ${typeName.toUpperCase()}_TOKEN, useValue: … }, or type it with a class`,
      });
    }
  }
  return drifts;
}

/** The class's own decorator that takes an `inject` list: `Toolset` when it has one, else `Injectable`. */
function injectListDecorator(checker: ts.TypeChecker, declaration: ts.ClassDeclaration): string {
  return findDecorator(checker, declaration, 'Toolset') ? 'Toolset' : 'Injectable';
}

/** How many constructor positions the `inject: [...]` list of the class's `@Toolset` or `@Injectable` names (0 without one). */
function injectListLength(checker: ts.TypeChecker, declaration: ts.ClassDeclaration): number {
  for (const name of ['Toolset', 'Injectable']) {
    const decorator = findDecorator(checker, declaration, name);
    const options = decorator && ts.isCallExpression(decorator.expression) ? decorator.expression.arguments[0] : undefined;
    if (!options || !ts.isObjectLiteralExpression(options)) continue;
    const inject = options.properties.find((property): property is ts.PropertyAssignment => ts.isPropertyAssignment(property) && property.name.getText() === 'inject');
    if (inject && ts.isArrayLiteralExpression(inject.initializer)) return inject.initializer.elements.length;
  }
  return 0;
}

/** The quoted module of an `import type { X }` / `import { type X }` that `symbol` comes from. */
function typeOnlyImportOf(symbol: ts.Symbol): string | undefined {
  const declaration = symbol.declarations?.[0];
  if (!declaration || !ts.isImportSpecifier(declaration)) return undefined;
  const clause = declaration.parent.parent;
  if (!declaration.isTypeOnly && !clause.isTypeOnly) return undefined;
  return clause.parent.moduleSpecifier.getText();
}

function propertiesOf(object: ts.ObjectLiteralExpression): Map<string, ts.Expression> {
  const found = new Map<string, ts.Expression>();
  for (const property of object.properties) {
    if (ts.isPropertyAssignment(property)) found.set(propertyName(property.name), property.initializer);
    else if (ts.isShorthandPropertyAssignment(property)) found.set(property.name.text, property.name);
  }
  return found;
}

function propertyName(name: ts.PropertyName): string {
  return ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name) ? name.text : name.getText();
}

/** The JSON value an expression is written as (literals, arrays, objects, `as const`, a `const` it names); `undefined` when it is not one. */
function literalJson(checker: ts.TypeChecker, expression: ts.Expression, depth = 0): unknown {
  if (depth > 20) return undefined;
  const next = (e: ts.Expression) => literalJson(checker, e, depth + 1);
  if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression)) return next(expression.expression);
  if (ts.isStringLiteralLike(expression)) return expression.text;
  if (ts.isNumericLiteral(expression)) return Number(expression.text);
  if (ts.isPrefixUnaryExpression(expression) && expression.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(expression.operand)) return -Number(expression.operand.text);
  if (expression.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (expression.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (expression.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isArrayLiteralExpression(expression)) {
    const values = expression.elements.map((element) => (ts.isSpreadElement(element) ? undefined : next(element)));
    return values.includes(undefined) ? undefined : values;
  }
  if (ts.isObjectLiteralExpression(expression)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of propertiesOf(expression)) {
      const json = next(value);
      if (json === undefined) return undefined;
      out[key] = json;
    }
    return expression.properties.every((p) => ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) ? out : undefined;
  }
  if (ts.isIdentifier(expression)) {
    let symbol = checker.getSymbolAtLocation(expression);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const declaration = symbol?.valueDeclaration;
    if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer && ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const) {
      return next(declaration.initializer);
    }
  }
  return undefined;
}

/**
 * The type a Standard Schema expression outputs (its `~standard.types.output`), or `undefined` when the
 * expression is not a Standard Schema or its library does not declare the type.
 */
function standardSchemaOutput(checker: ts.TypeChecker, expression: ts.Expression): ts.Type | undefined {
  // `~standard` and `types` may be optional members; the output type itself is taken as declared.
  const member = (type: ts.Type | undefined, name: string): ts.Type | undefined => {
    const symbol = type && checker.getNonNullableType(type).getProperty(name);
    return symbol && checker.getTypeOfSymbolAtLocation(symbol, expression);
  };
  const output = member(member(member(checker.getTypeAtLocation(expression), '~standard'), 'types'), 'output');
  return output && !(output.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) ? output : undefined;
}

/** The values a schema lists (`enum`, `const`), or `undefined` when it lists none. */
function valuesOf(schema: JsonSchema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum as unknown[];
  if ('const' in schema) return [schema.const];
  return undefined;
}

/** The JSON types a schema allows (`type`, else those of its listed values), or `undefined` when it does not say. */
function typesOf(schema: JsonSchema): string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  const values = valuesOf(schema);
  return values ? [...new Set(values.map(jsonType))] : undefined;
}

function accepts(schema: JsonSchema, value: unknown): boolean {
  const values = valuesOf(schema);
  if (values) return values.some((allowed) => allowed === value);
  const types = typesOf(schema);
  if (!types) return true;
  const type = jsonType(value);
  return types.includes(type) || (type === 'integer' && types.includes('number')) || (type === 'number' && Number.isInteger(value) && types.includes('integer'));
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function jsonTypeName(values: readonly unknown[]): string {
  const types = [...new Set(values.map((v) => (typeof v === 'number' ? 'number' : jsonType(v))))];
  return types.join(' or ');
}

function reflectedName(values: readonly unknown[]): string {
  const types = new Set(values.map((v) => typeof v));
  return types.size === 1 && types.has('string') ? 'String' : types.size === 1 && types.has('number') ? 'Number' : 'Object';
}

function withoutAnnotations(schema: JsonSchema): JsonSchema {
  const { description, default: defaultValue, ...rest } = schema;
  void description;
  void defaultValue;
  return rest;
}

function admitsNull(type: ts.Type): boolean {
  if (type.flags & (ts.TypeFlags.Null | ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
  return type.isUnion() && type.types.some((member) => (member.flags & ts.TypeFlags.Null) !== 0);
}

function calleeName(checker: ts.TypeChecker, decorator: ts.Decorator): string | undefined {
  return resolvedName(checker, ts.isCallExpression(decorator.expression) ? decorator.expression.expression : decorator.expression);
}

function classDeclarationOf(type: ts.Type): ts.ClassLikeDeclaration | undefined {
  const declaration = type.getSymbol()?.declarations?.find(ts.isClassLike);
  return declaration && !declaration.getSourceFile().isDeclarationFile ? declaration : undefined;
}

function hasClassValidatorProperty(checker: ts.TypeChecker, declaration: ts.ClassLikeDeclaration): boolean {
  return declaration.members.some((member) => ts.isPropertyDeclaration(member) && (ts.getDecorators(member) ?? []).some((d) => comesFromClassValidator(checker, d)));
}
