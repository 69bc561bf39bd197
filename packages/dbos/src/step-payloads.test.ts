import { InMemoryArtifactService } from '@toolsmith/core';
import { StepPayloads, payloadScope } from './step-payloads';

const where = { appName: 'shop', userId: 'u', sessionId: 's' };

it('an output longer than the threshold is saved as an artifact and recorded as its reference; a shorter one, or any without an artifact service, is recorded whole', async () => {
  const artifacts = new InMemoryArtifactService();
  const payloads = new StepPayloads(artifacts, 100);
  const large = { data: 'x'.repeat(200) };

  const recorded = await payloads.record(large, where);

  expect(recorded).toEqual({ artifact: { filename: expect.stringMatching(/^toolsmith\.dbos\.[0-9a-f-]{36}\.json$/), version: 0 } });
  expect(JSON.stringify(recorded).length).toBeLessThan(100);
  expect(await payloads.restore(recorded, where)).toEqual(large);
  // In a scope of its own: the run's session lists no file of it.
  expect(await artifacts.listArtifactKeys(where)).toEqual([]);
  expect(await payloads.record({ data: 'small' }, where)).toEqual({ value: { data: 'small' } });
  expect(await new StepPayloads(undefined, 100).record(large, where)).toEqual({ value: large });
});

it('a reference whose artifact is gone fails the replay with DURABLE_PAYLOAD_MISSING', async () => {
  const artifacts = new InMemoryArtifactService();
  const payloads = new StepPayloads(artifacts, 10);
  const recorded = await payloads.record({ data: 'x'.repeat(20) }, where);
  if (!('artifact' in recorded)) throw new Error('expected a reference');
  await artifacts.deleteArtifact({ ...payloadScope(where), filename: recorded.artifact.filename });

  await expect(payloads.restore(recorded, where)).rejects.toMatchObject({ code: 'DURABLE_PAYLOAD_MISSING', filename: recorded.artifact.filename, version: 0 });
});
