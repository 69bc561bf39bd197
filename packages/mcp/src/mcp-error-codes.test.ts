import { CORE_ERROR_CODES } from '@toolsmith/core';
import { errorCodeProblems } from '@toolsmith/core/testing';
import { join } from 'node:path';
import { MCP_ERROR_CODES } from './mcp-error-codes';

describe('@toolsmith/mcp error codes', () => {
  it('uses only listed codes, and docs/errors.md lists exactly them', () => {
    const problems = errorCodeProblems({
      packageName: '@toolsmith/mcp',
      codes: MCP_ERROR_CODES,
      inherited: CORE_ERROR_CODES,
      sourceDir: __dirname,
      docsFile: join(__dirname, '../../../docs/errors.md'),
      // Environment variables, injection tokens, provider values and Node's socket error codes, not Toolsmith's codes.
      notCodes: ['DUPLICATE_TOOL_NAME', 'TOOLSMITH_MANIFEST', 'UND_ERR_SOCKET'],
    });
    expect(problems).toEqual([]);
  });
});
