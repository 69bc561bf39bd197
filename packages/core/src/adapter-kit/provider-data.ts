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

/**
 * The part's `thoughtSignature` when `provider` issued it (or when the part does not say who did: data of
 * earlier releases), to send back unchanged; `undefined` when there is none or another provider's.
 *
 * @example
 * ```ts
 * const signature = ownThoughtSignature(part, 'anthropic');
 * if (part.thought) return signature === undefined ? [] : [{ type: 'thinking', thinking: part.text, signature }];
 * ```
 */
export function ownThoughtSignature(part: Part, provider: string): string | undefined {
  const issuer = part.thoughtSignatureProvider;
  return issuer === undefined || issuer === provider ? part.thoughtSignature : undefined;
}

/**
 * The fields that keep a signature a provider issued on a part: `thoughtSignature` and who issued it;
 * nothing when there is no signature.
 *
 * @example
 * ```ts
 * parts.push({ text: block.thinking, thought: true, ...signedBy('anthropic', block.signature) });
 * ```
 */
export function signedBy(provider: string, signature: string | undefined): Pick<Part, 'thoughtSignature' | 'thoughtSignatureProvider'> {
  return signature === undefined ? {} : { thoughtSignature: signature, thoughtSignatureProvider: provider };
}
