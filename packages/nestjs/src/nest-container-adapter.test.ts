import { Inject, Injectable, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { ToolsmithError } from '@toolsmith/core';
import type { ResolutionScope } from '@toolsmith/core';
import { NestContainerAdapter } from './nest-container-adapter';

let built = 0;

@Injectable()
class Clock {
  readonly serial = ++built;
}

@Injectable({ scope: Scope.REQUEST })
class RunInfo {
  readonly serial = ++built;
  constructor(@Inject(REQUEST) readonly run: ResolutionScope) {}
}

// A singleton by declaration, made per-run by Nest because a dependency is.
@Injectable()
class UsesRunInfo {
  constructor(readonly info: RunInfo) {}
}

@Injectable({ scope: Scope.TRANSIENT })
class Scratchpad {
  readonly serial = ++built;
}

const scope = (invocationId: string, userId = 'u1'): ResolutionScope => ({ invocationId, userId, sessionId: 's1' });

async function adapter(): Promise<NestContainerAdapter> {
  const moduleRef = await Test.createTestingModule({
    providers: [Clock, RunInfo, UsesRunInfo, Scratchpad, { provide: 'GREETING', useValue: 'hello' }, NestContainerAdapter],
  }).compile();
  return moduleRef.get(NestContainerAdapter);
}

describe('NestContainerAdapter', () => {
  it('gives the one instance of a singleton, with or without a run', async () => {
    const container = await adapter();
    const a = await container.resolve(Clock);
    expect(await container.resolve(Clock, scope('inv-1'))).toBe(a);
    expect(await container.resolve('GREETING')).toBe('hello');
    expect(container.isStatic(Clock)).toBe(true);
  });

  it('builds a request-scoped provider once per run, with the run as REQUEST', async () => {
    const container = await adapter();
    const first = await container.resolve(RunInfo, scope('inv-1', 'alice'));
    const again = await container.resolve(RunInfo, scope('inv-1', 'alice'));
    const other = await container.resolve(RunInfo, scope('inv-2', 'bob'));
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(first.run).toEqual({ invocationId: 'inv-1', userId: 'alice', sessionId: 's1' });
    expect(other.run.userId).toBe('bob');
    expect(container.isStatic(RunInfo)).toBe(false);
  });

  it('treats a singleton that depends on a request-scoped provider as per-run', async () => {
    const container = await adapter();
    expect(container.isStatic(UsesRunInfo)).toBe(false);
    const one = await container.resolve(UsesRunInfo, scope('inv-1'));
    const two = await container.resolve(UsesRunInfo, scope('inv-2'));
    expect(one).not.toBe(two);
    expect(one.info).toBe(await container.resolve(RunInfo, scope('inv-1')));
  });

  it('builds a transient provider once per run', async () => {
    const container = await adapter();
    const a = await container.resolve(Scratchpad, scope('inv-1'));
    expect(await container.resolve(Scratchpad, scope('inv-1'))).toBe(a);
    expect(await container.resolve(Scratchpad, scope('inv-2'))).not.toBe(a);
  });

  it('starts a new sub-tree after a run is released', async () => {
    const container = await adapter();
    const before = await container.resolve(RunInfo, scope('inv-1'));
    container.release('inv-1');
    expect(await container.resolve(RunInfo, scope('inv-1'))).not.toBe(before);
  });

  it('refuses a request-scoped provider outside a run', async () => {
    const container = await adapter();
    expect(() => container.resolve(RunInfo)).toThrow(expect.objectContaining({ code: 'PROVIDER_NEEDS_RUN_SCOPE' }));
  });

  it('reports an unknown token with a typed error naming it', async () => {
    const container = await adapter();
    class NotProvided {}
    let error: unknown;
    try {
      container.resolve(NotProvided, scope('inv-1'));
    } catch (thrown) {
      error = thrown;
    }
    expect(ToolsmithError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'PROVIDER_NOT_FOUND', message: expect.stringContaining('NotProvided') });
  });
});
