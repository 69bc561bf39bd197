import { MANIFEST_VERSION } from './manifest-document';

/**
 * The problems that make a parsed JSON value unusable as a manifest, one sentence each (empty when it
 * is fine). Written by hand rather than with ajv: startup from a manifest must not pay for compiling a
 * validator (about 100 ms) before the first tool call needs one.
 */
export function manifestProblems(document: unknown): string[] {
  const problems: string[] = [];
  const at = (path: string, message: string) => problems.push(`${path} ${message}`);
  if (!isObject(document)) return ['the document must be an object'];
  if (document.version !== MANIFEST_VERSION) at('"version"', `must be ${MANIFEST_VERSION}, found ${JSON.stringify(document.version)}`);
  if (typeof document.generator !== 'string') at('"generator"', 'must be a string');
  if (document.types !== undefined) {
    if (!isObject(document.types)) at('"types"', 'must be an object');
    else for (const [typeName, type] of Object.entries(document.types)) {
      const where = `"types.${typeName}`;
      if (!isObject(type)) {
        at(`${where}"`, 'must be an object');
        continue;
      }
      checkSource(type, where, at);
      checkSources(type.dependencies, `${where}.dependencies`, at);
      if (!isSchema(type.schema)) at(`${where}.schema"`, 'must be a JSON Schema');
    }
  }
  if (!isObject(document.toolsets)) {
    at('"toolsets"', 'must be an object');
    return problems;
  }
  for (const [className, toolset] of Object.entries(document.toolsets)) {
    const where = `"toolsets.${className}`;
    if (!isObject(toolset)) {
      at(`${where}"`, 'must be an object');
      continue;
    }
    checkSource(toolset, where, at);
    checkSources(toolset.bases, `${where}.bases`, at);
    checkSources(toolset.dependencies, `${where}.dependencies`, at);
    if (!isObject(toolset.methods)) {
      at(`${where}.methods"`, 'must be an object');
      continue;
    }
    for (const [methodName, method] of Object.entries(toolset.methods)) {
      checkMethod(method, `${where}.methods.${methodName}`, at);
    }
  }
  return problems;
}

function checkSource(entry: Record<string, unknown>, where: string, at: (path: string, message: string) => void): void {
  if (typeof entry.source !== 'string' || entry.source === '') at(`${where}.source"`, 'must be a non-empty string');
  if (typeof entry.sourceHash !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(entry.sourceHash)) {
    at(`${where}.sourceHash"`, 'must be "sha256:" and 64 hex digits');
  }
}

/** An optional array of sources (`bases`, `dependencies`). */
function checkSources(entries: unknown, where: string, at: (path: string, message: string) => void): void {
  if (entries === undefined) return;
  if (!Array.isArray(entries)) return at(`${where}"`, 'must be an array');
  entries.forEach((entry: unknown, i: number) => {
    if (isObject(entry)) checkSource(entry, `${where}.${i}`, at);
    else at(`${where}.${i}"`, 'must be an object');
  });
}

function checkMethod(method: unknown, where: string, at: (path: string, message: string) => void): void {
  if (!isObject(method)) return at(`${where}"`, 'must be an object');
  if (method.description !== undefined && typeof method.description !== 'string') at(`${where}.description"`, 'must be a string');
  if (method.contextIndex !== undefined && !isIndex(method.contextIndex)) at(`${where}.contextIndex"`, 'must be an integer >= 0');
  if (method.length !== undefined && !isIndex(method.length)) at(`${where}.length"`, 'must be an integer >= 0');
  if (method.parameterCount !== undefined && !isIndex(method.parameterCount)) at(`${where}.parameterCount"`, 'must be an integer >= 0');
  if (method.outputSchema !== undefined && !isSchema(method.outputSchema)) at(`${where}.outputSchema"`, 'must be a JSON Schema');
  if (method.$defs !== undefined && (!isObject(method.$defs) || !Object.values(method.$defs).every(isSchema))) {
    at(`${where}.$defs"`, 'must map names to JSON Schemas');
  }
  if (!Array.isArray(method.parameters)) return at(`${where}.parameters"`, 'must be an array');
  method.parameters.forEach((parameter: unknown, i: number) => {
    const p = `${where}.parameters.${i}`;
    if (!isObject(parameter)) return at(`${p}"`, 'must be an object');
    if (typeof parameter.name !== 'string' || parameter.name === '') at(`${p}.name"`, 'must be a non-empty string');
    if (!isIndex(parameter.index)) at(`${p}.index"`, 'must be an integer >= 0');
    if (!isSchema(parameter.schema)) at(`${p}.schema"`, 'must be a JSON Schema');
    if (typeof parameter.optional !== 'boolean') at(`${p}.optional"`, 'must be a boolean');
    if (parameter.description !== undefined && typeof parameter.description !== 'string') at(`${p}.description"`, 'must be a string');
    if (parameter.revive !== undefined && parameter.revive !== 'date') at(`${p}.revive"`, 'must be "date"');
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSchema(value: unknown): boolean {
  return isObject(value) || typeof value === 'boolean';
}

function isIndex(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 0;
}
