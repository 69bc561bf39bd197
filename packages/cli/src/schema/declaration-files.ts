import * as ts from 'typescript';

/**
 * The project files whose declarations a schema is built from: the files declaring the types a
 * parameter or return type names or reaches (interfaces, aliases with their JSDoc, enums, the members
 * of those), through any number of files. The manifest records them so that a change to an imported
 * type makes the entry stale, as a change to the toolset's own file does. Files of the TypeScript
 * library and of `node_modules` are left out: they change with a dependency's version, not the code.
 */
export class DeclarationFiles {
  /** The files found so far. */
  readonly files = new Set<ts.SourceFile>();
  private readonly checker: ts.TypeChecker;
  private readonly seenTypes = new Set<ts.Type>();
  private readonly seenDeclarations = new Set<ts.Node>();

  /** One per manifest entry: what was walked for one entry is not skipped for the next. */
  constructor(private readonly program: ts.Program) {
    this.checker = program.getTypeChecker();
  }

  /** Adds the files of the declarations `type` is made of (its members, arguments and union members too). */
  ofType(type: ts.Type): void {
    if (this.seenTypes.has(type)) return;
    this.seenTypes.add(type);
    const symbols = [type.aliasSymbol, type.getSymbol()].filter((symbol): symbol is ts.Symbol => symbol !== undefined);
    let own = false;
    for (const symbol of symbols) own = this.ofSymbol(symbol) || own;
    type.aliasTypeArguments?.forEach((argument) => this.ofType(argument));
    if (type.isUnionOrIntersection()) {
      type.types.forEach((member) => this.ofType(member));
      return;
    }
    if (type.flags & ts.TypeFlags.TemplateLiteral) (type as ts.TemplateLiteralType).types.forEach((member) => this.ofType(member));
    if (!(type.flags & ts.TypeFlags.Object)) return;
    if ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) {
      this.checker.getTypeArguments(type as ts.TypeReference).forEach((argument) => this.ofType(argument));
    }
    // A library type (Date, Array, Promise) is known by its arguments; its own members are not the project's.
    if (symbols.length > 0 && !own && symbols.every((symbol) => this.isLibrarySymbol(symbol))) return;
    for (const property of this.checker.getPropertiesOfType(type)) {
      this.ofSymbol(property);
      this.ofType(this.checker.getTypeOfSymbol(property));
    }
    for (const index of this.checker.getIndexInfosOfType(type)) this.ofType(index.type);
  }

  /**
   * Adds the files of the declarations a type written in the source names (`keyof Stop`,
   * `Partial<Stop>`, an alias whose JSDoc adds constraints), which the resolved type may no longer show.
   */
  ofNode(node: ts.Node | undefined): void {
    if (!node) return;
    const visit = (current: ts.Node): void => {
      // Bodies and initializers are code, not declarations of a type.
      if (ts.isBlock(current) || ts.isExpressionStatement(current)) return;
      if (ts.isTypeReferenceNode(current) || ts.isExpressionWithTypeArguments(current) || ts.isTypeQueryNode(current)) {
        const name = ts.isTypeReferenceNode(current) ? current.typeName : ts.isTypeQueryNode(current) ? current.exprName : current.expression;
        const symbol = this.checker.getSymbolAtLocation(name);
        if (symbol) this.ofSymbol(symbol);
      }
      ts.forEachChild(current, visit);
    };
    visit(node);
  }

  /** Adds the project files declaring `symbol` and walks those declarations; whether any was the project's. */
  private ofSymbol(symbol: ts.Symbol): boolean {
    const target = symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
    let own = false;
    for (const declaration of target.declarations ?? []) {
      const file = declaration.getSourceFile();
      if (!this.isProjectFile(file)) continue;
      own = true;
      this.files.add(file);
      if (this.seenDeclarations.has(declaration)) continue;
      this.seenDeclarations.add(declaration);
      this.ofNode(declaration);
    }
    return own;
  }

  private isLibrarySymbol(symbol: ts.Symbol): boolean {
    const declarations = symbol.declarations ?? [];
    return declarations.length > 0 && declarations.every((declaration) => !this.isProjectFile(declaration.getSourceFile()));
  }

  private isProjectFile(file: ts.SourceFile): boolean {
    return (
      !this.program.isSourceFileDefaultLibrary(file) &&
      !this.program.isSourceFileFromExternalLibrary(file) &&
      !/[\\/]node_modules[\\/]/.test(file.fileName)
    );
  }
}
