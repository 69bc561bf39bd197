import { CORE_ERROR_CODES } from '@toolsmith/core';
import { errorCodeProblems } from '@toolsmith/core/testing';
import { join } from 'node:path';
import { GEMINI_ERROR_CODES } from './gemini-error-codes';

describe('@toolsmith/gemini error codes', () => {
  it('uses only listed codes, and docs/errors.md lists exactly them', () => {
    const problems = errorCodeProblems({
      packageName: '@toolsmith/gemini',
      codes: GEMINI_ERROR_CODES,
      inherited: CORE_ERROR_CODES,
      sourceDir: __dirname,
      docsFile: join(__dirname, '../../../docs/errors.md'),
      // Environment variables, injection tokens and provider values, not Toolsmith's codes.
      notCodes: ['API_KEY_INVALID', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION', 'IMAGE_SAFETY', 'MALFORMED_FUNCTION_CALL', 'MAX_TOKENS', 'PROHIBITED_CONTENT', 'TOO_MANY_TOOL_CALLS', 'UNEXPECTED_TOOL_CALL', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    });
    expect(problems).toEqual([]);
  });
});
