import { createHash } from 'node:crypto';

/**
 * Hashes a TypeScript source text the way manifests record it: `sha256:<hex>` of the text with line
 * endings normalized to `\n`, so a checkout with CRLF line endings is not reported as stale.
 */
export function hashSource(text: string): string {
  return `sha256:${createHash('sha256').update(text.replace(/\r\n/g, '\n'), 'utf8').digest('hex')}`;
}
