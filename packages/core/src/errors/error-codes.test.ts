import { join } from 'node:path';
import { errorCodeProblems } from '../testing/error-code-check';
import { CORE_ERROR_CODES } from './error-codes';

describe('@toolsmith/core error codes', () => {
  it('uses only listed codes, and docs/errors.md lists exactly them', () => {
    const problems = errorCodeProblems({
      packageName: '@toolsmith/core',
      codes: CORE_ERROR_CODES,
      sourceDir: join(__dirname, '..'),
      docsFile: join(__dirname, '../../../../docs/errors.md'),
      // Injection tokens and environment variables in TSDoc examples and code.
      notCodes: ['API_KEY', 'DB_URL', 'WEATHER_API_KEY', 'TOOLSMITH_MANIFEST'],
    });
    expect(problems).toEqual([]);
  });

  it('reports a code the sources use but the list lacks, and a documented code that no longer exists', () => {
    const problems = errorCodeProblems({
      packageName: '@toolsmith/core',
      codes: { ...CORE_ERROR_CODES, GONE_CODE: 'no longer reported' },
      sourceDir: join(__dirname, '..'),
      docsFile: join(__dirname, '../../../../docs/errors.md'),
      notCodes: ['API_KEY', 'DB_URL', 'WEATHER_API_KEY'],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/manifest-registry\.ts: "TOOLSMITH_MANIFEST" is not a code of @toolsmith\/core/),
        expect.stringMatching(/@toolsmith\/core does not list GONE_CODE/),
      ]),
    );
    expect(problems.every((p) => /TOOLSMITH_MANIFEST|GONE_CODE/.test(p))).toBe(true);
  });
});
