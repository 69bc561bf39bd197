import { CORE_ERROR_CODES } from '@toolsmith/core';
import { errorCodeProblems } from '@toolsmith/core/testing';
import { join } from 'node:path';
import { DEVTOOLS_ERROR_CODES } from './devtools-error-codes';

describe('@toolsmith/devtools error codes', () => {
  it('uses only listed codes, and docs/errors.md lists exactly them', () => {
    const problems = errorCodeProblems({
      packageName: '@toolsmith/devtools',
      codes: DEVTOOLS_ERROR_CODES,
      inherited: CORE_ERROR_CODES,
      sourceDir: __dirname,
      docsFile: join(__dirname, '../../../docs/errors.md'),
      // Environment variables, injection tokens and provider values, not Toolsmith's codes.
      notCodes: ['SESSION_NOT_FOUND', 'TOOLSMITH_MANIFEST'],
    });
    expect(problems).toEqual([]);
  });
});
