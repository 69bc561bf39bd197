// Checks every package's public surface against its committed API report (API Extractor), so a change to
// what users can import is a visible diff in review. `npm test` runs the check on the built `.d.ts`
// files; `npm run api:update` rewrites the reports after an intended change.
// A report must also have no undocumented export or member and no `ae-forgotten-export` (a public
// signature that names a type users cannot import).
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const update = process.argv.includes('--update');

/** Each published entry point: its package folder and its `.d.ts` under dist/. */
const entries = [
  ['core', 'index', 'core'],
  ['core', 'adapter-kit/index', 'core-adapter-kit'],
  ['core', 'testing/index', 'core-testing'],
  ['core', 'internal/index', 'core-internal'],
  ['openai', 'index', 'openai'],
  ['anthropic', 'index', 'anthropic'],
  ['gemini', 'index', 'gemini'],
  ['nestjs', 'index', 'nestjs'],
  ['mcp', 'index', 'mcp'],
  ['cli', 'index', 'cli'],
  ['postgres', 'index', 'postgres'],
  ['dbos', 'index', 'dbos'],
  ['evals', 'index', 'evals'],
  ['devtools', 'index', 'devtools'],
];


/** Names a report's entry point exports (`export declare class X`, `export type X`, …). */
function exportedNames(reportPath) {
  if (!existsSync(reportPath)) return new Set();
  const names = readFileSync(reportPath, 'utf8').matchAll(/^export (?:declare )?(?:abstract )?(?:class|interface|type|function|const|enum|namespace) (\w+)/gm);
  return new Set([...names].map((m) => m[1]));
}

const temp = mkdtempSync(join(tmpdir(), 'toolsmith-api-report-'));
const failures = [];
try {
  for (const [pkg, entry, reportName] of entries) {
    const packageDir = join(root, 'packages', pkg);
    const dts = join(packageDir, 'dist', `${entry}.d.ts`);
    if (!existsSync(dts)) {
      failures.push(`${pkg}: ${dts} is missing (run tsc -b first)`);
      continue;
    }
    mkdirSync(join(packageDir, 'api-report'), { recursive: true });
    const config = ExtractorConfig.prepare({
      configObjectFullPath: join(packageDir, 'api-extractor.json'),
      packageJsonFullPath: join(packageDir, 'package.json'),
      configObject: {
        projectFolder: packageDir,
        mainEntryPointFilePath: dts,
        compiler: { tsconfigFilePath: join(packageDir, 'tsconfig.json') },
        apiReport: { enabled: true, reportFolder: join(packageDir, 'api-report'), reportTempFolder: temp, reportFileName: `${reportName}.api.md` },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: 'warning' } },
          extractorMessageReporting: {
            default: { logLevel: 'warning' },
            'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
            // TSDoc links to another package's exports are for readers; API Extractor cannot follow them.
            'ae-unresolved-link': { logLevel: 'none', addToApiReportFile: false },
            // Undocumented items are marked inline (`// (undocumented)`); the message's own list carries source
            // line numbers, which would make every unrelated edit a report change.
            'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
            'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
          },
          tsdocMessageReporting: { default: { logLevel: 'none' } },
        },
      },
    });
    const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false, messageCallback: (m) => {
      // The bundled compiler is older than the repo's; that notice is not a problem of the report.
      if (m.messageId === 'console-compiler-version-notice') m.handled = true;
    } });
    const report = join(packageDir, 'api-report', `${reportName}.api.md`);
    if (!update && result.apiReportChanged) failures.push(`${reportName}: the public surface changed; review it and run \`npm run api:update\``);
    if (!result.succeeded && !result.apiReportChanged) failures.push(`${reportName}: API Extractor failed (${result.errorCount} errors)`);
    if (existsSync(report)) {
      // A subpath entry (adapter-kit, testing, internal) may name what the package's main entry exports.
      const mainExports = entry === 'index' ? new Set() : exportedNames(join(packageDir, 'api-report', `${pkg}.api.md`));
      const lines = readFileSync(report, 'utf8').split('\n');
      const warnings = [
        ...lines
          .filter((line) => line.includes('(ae-forgotten-export)'))
          .filter((line) => !mainExports.has(/The symbol "(\w+)"/.exec(line)?.[1] ?? '')),
        // `// (undocumented)` marks an export or a member (indented) without TSDoc: every one needs it.
        ...lines.flatMap((line, i) => (line.trim() === '// (undocumented)' ? [`undocumented: ${lines[i + 1].trim()}${line.startsWith(' ') ? ` (a member of ${containerAbove(lines, i)})` : ''}`] : [])),
      ];
      if (warnings.length > 0) failures.push(`${reportName}: ${warnings.length} exports need attention:\n  ${warnings.join('\n  ')}`);
    }
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`API report check failed:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(update ? 'API reports updated.' : `API reports match (${entries.length} entry points).`);

/** The export a report line at `index` belongs to: the nearest unindented declaration above it. */
function containerAbove(lines, index) {
  for (let i = index; i >= 0; i--) {
    const match = /^export (?:declare )?(?:abstract )?(?:class|interface|namespace|enum|type) (\w+)/.exec(lines[i]) ?? /^(?:declare )?class (\w+)/.exec(lines[i]);
    if (match) return match[1];
  }
  return 'an unknown declaration';
}
