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
        // `Ns.Stop` with `import * as Ns from './barrel'`: the barrel and its `export *` chain.
        if (symbol && ts.isQualifiedName(name)) {
          let left: ts.EntityName = name.left;
          while (ts.isQualifiedName(left)) left = left.left;
          const namespace = this.checker.getSymbolAtLocation(left);
          if (namespace) this.ofSymbol(namespace);
          const module = namespace && this.checker.getAliasedSymbol(namespace).valueDeclaration;
          if (module && ts.isSourceFile(module)) this.throughModule(module, symbol);
        }
      }
      // `import('./barrel').Stop`
      if (ts.isImportTypeNode(current) && current.qualifier && ts.isLiteralTypeNode(current.argument) && ts.isStringLiteral(current.argument.literal)) {
        const module = this.checker.getSymbolAtLocation(current.argument.literal)?.valueDeclaration;
        const symbol = this.checker.getSymbolAtLocation(current.qualifier);
        if (module && ts.isSourceFile(module) && symbol) {
          this.addProjectFile(module);
          this.throughModule(module, symbol);
        }
      }
      ts.forEachChild(current, visit);
    };
    visit(node);
  }

  /** Adds the project files declaring `symbol` and walks those declarations; whether any was the project's. */
  private ofSymbol(symbol: ts.Symbol): boolean {
    if (symbol.flags & ts.SymbolFlags.Alias) this.ofAliasChain(symbol);
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

  /**
   * Adds the files an imported name goes through on its way to its declaration: each module it is
   * imported or re-exported from (`export { Status as ReStatus } from './inner'`), and the files of
   * the `export * from` chain between a module and the file that declares the name, so that a change
   * to a barrel (it re-exports from another file now) makes the entry stale too.
   */
  private ofAliasChain(alias: ts.Symbol): void {
    let current: ts.Symbol | undefined = alias;
    for (let steps = 0; current && current.flags & ts.SymbolFlags.Alias && steps < 100; steps++) {
      const next: ts.Symbol | undefined = this.checker.getImmediateAliasedSymbol(current);
      for (const declaration of current.declarations ?? []) {
        const module = this.moduleOf(declaration);
        if (!module) continue;
        this.addProjectFile(module);
        const nextFiles = (next?.declarations ?? []).map((nextDeclaration) => nextDeclaration.getSourceFile());
        for (const file of nextFiles) if (file !== module) this.starPath(module, file, new Set());
      }
      current = next;
    }
  }

  /** Adds the files between `module` and the declarations of `symbol` (re-exports of it included). */
  private throughModule(module: ts.SourceFile, symbol: ts.Symbol): void {
    if (symbol.flags & ts.SymbolFlags.Alias) this.ofAliasChain(symbol);
    const target = symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
    for (const declaration of [...(symbol.declarations ?? []), ...(target.declarations ?? [])]) {
      const file = declaration.getSourceFile();
      if (file !== module) this.starPath(module, file, new Set());
    }
  }

  /** The source file of the module an import or re-export declaration names, if it has one. */
  private moduleOf(declaration: ts.Declaration): ts.SourceFile | undefined {
    let node: ts.Node | undefined = declaration;
    while (node && !ts.isImportDeclaration(node) && !ts.isExportDeclaration(node) && !ts.isImportEqualsDeclaration(node) && !ts.isSourceFile(node)) {
      node = node.parent;
    }
    if (!node || ts.isSourceFile(node)) return undefined;
    const specifier = ts.isImportEqualsDeclaration(node)
      ? ts.isExternalModuleReference(node.moduleReference) ? node.moduleReference.expression : undefined
      : node.moduleSpecifier;
    if (!specifier) return undefined;
    const declarationOfModule = this.checker.getSymbolAtLocation(specifier)?.valueDeclaration;
    return declarationOfModule && ts.isSourceFile(declarationOfModule) ? declarationOfModule : undefined;
  }

  /** Adds the files of an `export * from` chain from `from` to `to` (both included); whether one was found. */
  private starPath(from: ts.SourceFile, to: ts.SourceFile, visited: Set<ts.SourceFile>): boolean {
    if (from === to) return true;
    if (visited.has(from)) return false;
    visited.add(from);
    for (const statement of from.statements) {
      if (!ts.isExportDeclaration(statement) || statement.exportClause || !statement.moduleSpecifier) continue;
      const module = this.moduleOf(statement);
      if (module && this.starPath(module, to, visited)) {
        this.addProjectFile(from);
        this.addProjectFile(module);
        return true;
      }
    }
    return false;
  }

  private addProjectFile(file: ts.SourceFile): void {
    if (this.isProjectFile(file)) this.files.add(file);
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
