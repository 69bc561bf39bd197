import * as ts from 'typescript';
import { SchemaSourceError } from '../cli-errors';
import { location, resolvedName, visitProjectSources } from './find-toolsets';

/** A `manifestType<T>('Name')` call found in the program. */
export interface FoundManifestType {
  /** The call's string literal: the key of the type in the manifest. */
  typeName: string;
  /** The type argument `T`. */
  typeNode: ts.TypeNode;
  /** The file of the call. */
  sourceFile: ts.SourceFile;
  /** The file that declares `T` (the call's file for a type written inline or declared outside the project). */
  declarationFile: ts.SourceFile;
}

/**
 * Finds every `manifestType<T>('Name')` call in the program's own sources (declaration files and
 * `node_modules` are skipped). The function is recognised by the name it resolves to, as decorators
 * are. A call without its type argument or with a computed name is an error: nothing could be written.
 */
export function findManifestTypes(program: ts.Program): FoundManifestType[] {
  const checker = program.getTypeChecker();
  const found: FoundManifestType[] = [];
  visitProjectSources(program, (node, sourceFile) => {
    if (ts.isCallExpression(node) && resolvedName(checker, node.expression) === 'manifestType') found.push(readCall(checker, node, sourceFile));
  });
  return found;
}

function readCall(checker: ts.TypeChecker, call: ts.CallExpression, sourceFile: ts.SourceFile): FoundManifestType {
  const at = location(sourceFile, call);
  const [name] = call.arguments;
  if (!name || !ts.isStringLiteralLike(name) || name.text === '') {
    throw new SchemaSourceError(
      `${at}: manifestType() needs its name written as a string literal, e.g. manifestType<Forecast>('Forecast'); ` +
        'the manifest is keyed by it, and a computed name cannot be read from the source.',
    );
  }
  const typeNode = call.typeArguments?.[0];
  if (!typeNode) {
    throw new SchemaSourceError(
      `${at}: manifestType('${name.text}') has no type argument, so there is no type to write a schema for; ` +
        `write it: manifestType<${/^[A-Za-z_$][\w$]*$/.test(name.text) ? name.text : 'YourType'}>('${name.text}').`,
    );
  }
  return { typeName: name.text, typeNode, sourceFile, declarationFile: declaringFile(checker, typeNode) ?? sourceFile };
}

/** The project file that declares a named type (`Forecast`, `ns.Forecast`), else `undefined`. */
function declaringFile(checker: ts.TypeChecker, typeNode: ts.TypeNode): ts.SourceFile | undefined {
  if (!ts.isTypeReferenceNode(typeNode)) return undefined;
  let symbol = checker.getSymbolAtLocation(typeNode.typeName);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const file = symbol?.declarations?.[0]?.getSourceFile();
  return file && !file.isDeclarationFile ? file : undefined;
}
