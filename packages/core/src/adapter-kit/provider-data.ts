import type { Part } from '../model/content';

/**
 * Wraps a provider's own content that has no neutral form (an Anthropic server-tool block, a Gemini
 * code-execution part) in a {@link Part} with `providerData`, as a plain-JSON copy: sessions store it,
 * and SDKs parse responses with the `fetch` of whatever realm they run in.
 *
 * @example
 * ```ts
 * parts.push(providerDataPart('anthropic', block));
 * ```
 */
export function providerDataPart(provider: string, data: object): Part {
  return { providerData: { provider, data: JSON.parse(JSON.stringify(data)) as Record<string, unknown> } };
}

/**
 * The `providerData` of a part when it belongs to `provider`, to send back unchanged; `undefined` for a
 * part without provider data or with another provider's, which an adapter skips.
 *
 * @example
 * ```ts
 * const own = providerDataOf(part, 'gemini');
 * if (own) return [{ ...own }];
 * ```
 */
export function providerDataOf(part: Part, provider: string): Record<string, unknown> | undefined {
  return part.providerData?.provider === provider ? part.providerData.data : undefined;
}
