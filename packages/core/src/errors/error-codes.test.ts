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
      sameDescriptions: true,
    });
    expect(problems).toEqual([]);
  });

  it('reports a code docs/errors.md describes otherwise than the list that spans read at runtime', () => {
    const problems = errorCodeProblems({
      packageName: '@toolsmith/core',
      codes: { ...CORE_ERROR_CODES, CONFIRMATION_EDIT_INVALID: "A confirmation answer's edited arguments break the tool's schema." },
      sourceDir: join(__dirname, '..'),
      docsFile: join(__dirname, '../../../../docs/errors.md'),
      notCodes: ['API_KEY', 'DB_URL', 'WEATHER_API_KEY', 'TOOLSMITH_MANIFEST'],
      sameDescriptions: true,
    });
    expect(problems).toEqual([expect.stringMatching(/describes CONFIRMATION_EDIT_INVALID as "A confirmation answer's edited arguments are refused: .*", its list as "A confirmation answer's edited arguments break the tool's schema\."/)]);
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
