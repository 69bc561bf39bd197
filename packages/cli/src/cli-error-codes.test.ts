import { CORE_ERROR_CODES } from '@toolsmith/core';
import { errorCodeProblems } from '@toolsmith/core/testing';
import { join } from 'node:path';
import { CLI_ERROR_CODES } from './cli-error-codes';

describe('@toolsmith/cli error codes', () => {
  it('uses only listed codes, and docs/errors.md lists exactly them', () => {
    const problems = errorCodeProblems({
      packageName: '@toolsmith/cli',
      codes: CLI_ERROR_CODES,
      inherited: CORE_ERROR_CODES,
      sourceDir: __dirname,
      docsFile: join(__dirname, '../../../docs/errors.md'),
      notCodes: [],
    });
    expect(problems).toEqual([]);
  });
});
