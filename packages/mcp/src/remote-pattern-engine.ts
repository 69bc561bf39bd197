/** The part of `re2js` used here; loaded on the first remote schema with a pattern. */
interface Re2 {
  matcher(text: string): { find(): boolean };
}
let re2js: { RE2JS: { compile(pattern: string): Re2 } } | undefined;

/** What ajv's `code.regExp` option takes: a factory of testers, and its source for standalone code. */
interface RegExpEngine {
  (pattern: string, flags: string): { test: (text: string) => boolean };
  code: string;
}

/**
 * The regular-expression engine of a remote server's schemas (`pattern`, `patternProperties`): RE2
 * (re2js), which matches in time linear in the text, so no pattern a server declares (`^(a+)+$`, or
 * just `[a-z]+x` on 100,000 characters) can freeze the process while the model's arguments are checked.
 * A pattern RE2 does not take but JavaScript does (a lookaround, a backreference) is not checked here:
 * its tester accepts every text, and the server checks its own arguments. A pattern neither takes
 * throws, so the schema is invalid.
 */
export const remotePatternEngine: RegExpEngine = Object.assign(
  (pattern: string) => {
    re2js ??= require('re2js') as NonNullable<typeof re2js>;
    let re2: Re2;
    try {
      re2 = re2js.RE2JS.compile(pattern);
    } catch {
      new RegExp(pattern, 'u'); // throws the schema's problem when the pattern is no regular expression at all
      return { test: () => true, toString: () => `unchecked:${pattern}` };
    }
    // ajv shares one tester per distinct `toString()`.
    return { test: (text: string) => re2.matcher(text).find(), toString: () => `re2:${pattern}` };
  },
  { code: 'remotePatternEngine' },
);
