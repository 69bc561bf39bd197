import { createHash } from 'node:crypto';
import type { JsonSchema } from '../model/json-schema';

/**
 * A hash of a tool's parameter schema (SHA-256 of its JSON with keys sorted, hex): a remembered grant
 * matches only the schema it was given for, so a tool whose parameters change asks again.
 */
export function toolSchemaHash(parameters: JsonSchema): string {
  return jsonDigest(parameters);
}

/** SHA-256 (hex) of a JSON value with its object keys sorted: equal for equal values, whatever their key order. */
export function jsonDigest(value: unknown): string {
  return createHash('sha256').update(sortedJson(value)).digest('hex');
}

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).filter((key) => record[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${sortedJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
