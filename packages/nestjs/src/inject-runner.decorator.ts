import { Inject } from '@nestjs/common';

/** The injection token of the runner registered with `ToolsmithModule.forFeature({ name })`. */
export function getRunnerToken(name: string): string {
  return `ToolsmithRunner:${name}`;
}

/**
 * Injects the runner registered with `ToolsmithModule.forFeature({ name })`. The runner of `forRoot` is
 * injected by its type, `Runner`, with no decorator.
 *
 * @example
 * ```ts
 * @Injectable()
 * class OpsService {
 *   constructor(@InjectRunner('ops') private readonly opsRunner: Runner) {}
 * }
 * ```
 */
export function InjectRunner(name: string): PropertyDecorator & ParameterDecorator {
  return Inject(getRunnerToken(name));
}
