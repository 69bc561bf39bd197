import {
  dependencyCycleMessage,
  missingProviderMessage,
  providerFactoryFailedMessage,
  type UnknownDependencyReason,
  unknownDependencyTypeMessage,
} from './messages';
import { ToolsmithError } from './toolsmith-error';
import { thrownMessage } from './thrown-message';

/**
 * The container could not build an instance. `chain` is the path of tokens from what was asked for to
 * what failed, e.g. `['WeatherTools', 'WeatherApi']`.
 */
export class DependencyResolutionError extends ToolsmithError {
  private constructor(
    code: 'MISSING_PROVIDER' | 'DEPENDENCY_CYCLE' | 'UNKNOWN_DEPENDENCY_TYPE' | 'PROVIDER_FAILED',
    message: string,
    /** Token names from the one asked for to the one that failed (for a cycle, the repeated token ends it). */
    readonly chain: readonly string[],
    cause?: unknown,
  ) {
    super(code, message, { details: { chain }, cause });
  }

  /** No provider is registered for the last token of `chain`. */
  static missingProvider(chain: readonly string[]): DependencyResolutionError {
    return new DependencyResolutionError('MISSING_PROVIDER', missingProviderMessage(chain), chain);
  }

  /** `chain` starts and ends with the same token. */
  static cycle(chain: readonly string[]): DependencyResolutionError {
    return new DependencyResolutionError('DEPENDENCY_CYCLE', dependencyCycleMessage(chain), chain);
  }

  /** A constructor parameter's type cannot be injected; `reason` says why (see {@link UnknownDependencyReason}), `typeName` names a primitive. */
  static unknownType(chain: readonly string[], parameterIndex: number, reason?: UnknownDependencyReason, typeName?: string): DependencyResolutionError {
    return new DependencyResolutionError('UNKNOWN_DEPENDENCY_TYPE', unknownDependencyTypeMessage(chain, parameterIndex, reason, typeName), chain);
  }

  /** A factory or constructor threw. */
  static providerFailed(chain: readonly string[], cause: unknown): DependencyResolutionError {
    const reason = thrownMessage(cause);
    return new DependencyResolutionError('PROVIDER_FAILED', providerFactoryFailedMessage(chain, reason), chain, cause);
  }
}
