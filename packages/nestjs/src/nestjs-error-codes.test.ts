import { CORE_ERROR_CODES } from '@toolsmith/core';
import { errorCodeProblems } from '@toolsmith/core/testing';
import { join } from 'node:path';
import { NESTJS_ERROR_CODES } from './nestjs-error-codes';

describe('@toolsmith/nestjs error codes', () => {
  it('uses only listed codes, and docs/errors.md lists exactly them', () => {
    const problems = errorCodeProblems({
      packageName: '@toolsmith/nestjs',
      codes: NESTJS_ERROR_CODES,
      inherited: CORE_ERROR_CODES,
      sourceDir: __dirname,
      docsFile: join(__dirname, '../../../docs/errors.md'),
      notCodes: ['TOOLSMITH_MODULE_OPTIONS', 'TOOLSMITH_PLUGIN_INSTANCES', 'TOOLSMITH_SESSION_SERVICE'],
    });
    expect(problems).toEqual([]);
  });
});
