/**
 * Why the model stopped, in Toolsmith's terms (`unified`) and the provider's own (`raw`).
 */
export interface FinishReason {
  /** The reason in Toolsmith's terms, the same for every provider; `other` when the provider's has no equivalent. */
  unified: 'stop' | 'max-tokens' | 'tool-calls' | 'content-filter' | 'error' | 'other';
  /** The provider's own value as sent (e.g. `end_turn`, `length`), for logs and traces; absent when it sent none. */
  raw?: string;
}
