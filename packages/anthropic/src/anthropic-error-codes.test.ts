import { CORE_ERROR_CODES } from '@toolsmith/core';
import { errorCodeProblems } from '@toolsmith/core/testing';
import { join } from 'node:path';
import { ANTHROPIC_ERROR_CODES } from './anthropic-error-codes';

describe('@toolsmith/anthropic error codes', () => {
  it('uses only listed codes, and docs/errors.md lists exactly them', () => {
    const problems = errorCodeProblems({
      packageName: '@toolsmith/anthropic',
      codes: ANTHROPIC_ERROR_CODES,
      inherited: CORE_ERROR_CODES,
      sourceDir: __dirname,
      docsFile: join(__dirname, '../../../docs/errors.md'),
      // Environment variables, injection tokens and provider values, not Toolsmith's codes.
      notCodes: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'],
    });
    expect(problems).toEqual([]);
  });
});
