/**
 * One attempt of a model call as a provider adapter made it: the request body it sent to the provider's
 * SDK (as the adapter built it; API keys travel in headers and are never in it), which attempt it was,
 * how long it took and, when it failed, the error it was mapped to. A call that is retried reports one
 * exchange per attempt.
 */
export interface ProviderExchange {
  /** The provider id, e.g. `openai`. */
  provider: string;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  attempt: number;
  /** The request body handed to the SDK: the adapter's own object, not a copy; read it, never change it. */
  body: unknown;
  /** Milliseconds from sending the request to its answer (or, when streaming, to the stream's first response), or to the failure. */
  latencyMs: number;
  /** The error the attempt failed with (already mapped by the adapter); absent when it succeeded. */
  error?: { code: string; message: string };
}

/** Called once per attempt of a model call; see {@link ProviderExchange}. It must not throw. */
export type ProviderExchangeObserver = (exchange: ProviderExchange) => void;
