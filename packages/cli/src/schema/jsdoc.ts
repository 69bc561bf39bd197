import * as ts from 'typescript';

/**
 * The summary of a declaration's JSDoc: its first paragraph, lines joined with spaces. Tool
 * descriptions should be short; the rest of the comment is for people reading the code.
 */
export function jsDocSummary(node: ts.Node): string | undefined {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const last = docs[docs.length - 1];
  if (!last) return undefined;
  const text = ts.getTextOfJSDocComment(last.comment)?.trim();
  if (!text) return undefined;
  return normalize(text.split(/\n\s*\n/)[0]);
}

/**
 * The text of the `@param` tag of one parameter, without a leading `- `. The tag may name the
 * TypeScript parameter or, failing that, the argument name given with `@Param('name')`.
 */
export function jsDocParamDescription(parameter: ts.ParameterDeclaration, argumentName: string): string | undefined {
  const byTypeScriptName = ts.getJSDocParameterTags(parameter);
  const byArgumentName = ts
    .getJSDocTags(parameter.parent)
    .filter((tag): tag is ts.JSDocParameterTag => ts.isJSDocParameterTag(tag) && tag.name.getText() === argumentName);
  for (const tag of [...byTypeScriptName, ...byArgumentName]) {
    const text = ts.getTextOfJSDocComment(tag.comment)?.trim().replace(/^-\s*/, '');
    if (text) return normalize(text);
  }
  return undefined;
}

function normalize(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
