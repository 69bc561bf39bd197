const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const VARSPEC = /^([A-Za-z0-9_.]+)(\*|:[1-9][0-9]{0,3})?$/;

/**
 * The variable names of an RFC 6570 URI template (level 4 syntax: operators `+ # . / ; ? &`, lists,
 * `*` and `:n` modifiers), in order; or a sentence saying why it is not one (unbalanced braces, an empty
 * or badly named variable, a variable used twice, no variable at all).
 */
export function uriTemplateVariables(template: string): { variables: string[] } | { problem: string } {
  const variables: string[] = [];
  let rest = template;
  for (;;) {
    const open = rest.indexOf('{');
    const close = rest.indexOf('}');
    if (open < 0) {
      if (close >= 0) return { problem: 'has a "}" without its "{"' };
      break;
    }
    if (close >= 0 && close < open) return { problem: 'has a "}" without its "{"' };
    if (close < 0) return { problem: 'has a "{" without its "}"' };
    let expression = rest.slice(open + 1, close);
    if (expression.includes('{')) return { problem: 'nests braces' };
    if (OPERATORS.has(expression[0] ?? '')) expression = expression.slice(1);
    for (const spec of expression.split(',')) {
      const name = VARSPEC.exec(spec)?.[1];
      if (!name) return { problem: `has the expression "{${rest.slice(open + 1, close)}}", whose variable "${spec}" is not a name of letters, digits, _ and .` };
      if (variables.includes(name)) return { problem: `uses the variable "${name}" twice` };
      variables.push(name);
    }
    rest = rest.slice(close + 1);
  }
  if (variables.length === 0) return { problem: 'has no variable; a fixed URI is a @Resource' };
  if (/\s/.test(template)) return { problem: 'contains whitespace' };
  return { variables };
}

/**
 * A URI template with its variable names left out (`docs://p/{a}` and `docs://p/{b}` are both
 * `docs://p/{}`): two templates of one shape match the same URIs, so they are the same resource.
 * Operators and modifiers stay, as they change what a template matches.
 */
export function uriTemplateShape(template: string): string {
  return template.replace(/\{([^{}]*)\}/g, (_whole, expression: string) => {
    const operator = OPERATORS.has(expression[0] ?? '') ? expression[0] : '';
    const specs = (operator ? expression.slice(1) : expression).split(',');
    return `{${operator}${specs.map((spec) => spec.replace(/^[A-Za-z0-9_.]+/, '')).join(',')}}`;
  });
}
