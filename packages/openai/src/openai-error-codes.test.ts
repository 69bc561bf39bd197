import { CORE_ERROR_CODES } from '@toolsmith/core';
import { errorCodeProblems } from '@toolsmith/core/testing';
import { join } from 'node:path';
import { OPENAI_ERROR_CODES } from './openai-error-codes';

describe('@toolsmith/openai error codes', () => {
  it('uses only listed codes, and docs/errors.md lists exactly them', () => {
    const problems = errorCodeProblems({
      packageName: '@toolsmith/openai',
      codes: OPENAI_ERROR_CODES,
      inherited: CORE_ERROR_CODES,
      sourceDir: __dirname,
      docsFile: join(__dirname, '../../../docs/errors.md'),
      // Environment variables, injection tokens and provider values, not Toolsmith's codes.
      notCodes: ['OPENAI_API_KEY', 'OPENAI_BASE_URL'],
    });
    expect(problems).toEqual([]);
  });
});
