/**
 * Why the model stopped, in Toolsmith's terms (`unified`) and the provider's own (`raw`).
 */
export interface FinishReason {
  unified: 'stop' | 'max-tokens' | 'tool-calls' | 'content-filter' | 'error' | 'other';
  raw?: string;
}
