import type { OnApplicationShutdown } from '@nestjs/common';
import { type Event, Runner } from '@toolsmith/core';
import type { RunInput, RunnerOptions } from '@toolsmith/core';
import type { NestContainerAdapter } from './nest-container-adapter';

/**
 * The runner `ToolsmithModule` provides (injected as `Runner`). It differs in two things: it releases
 * the run's Nest DI sub-tree (its request-scoped instances) once the run's events have been consumed
 * or the consumer stopped early, and it closes its toolsets when the application shuts down.
 */
export class NestRunner extends Runner implements OnApplicationShutdown {
  constructor(
    options: RunnerOptions,
    private readonly nestContainer: NestContainerAdapter,
  ) {
    super(options);
  }

  override async *run(input: RunInput): AsyncGenerator<Event, void, undefined> {
    let invocationId: string | undefined;
    try {
      for await (const event of super.run(input)) {
        invocationId = event.invocationId;
        yield event;
      }
    } finally {
      if (invocationId) this.nestContainer.release(invocationId);
    }
  }

  /** Releases the toolsets (MCP connections and the like). Called by Nest. */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }
}
