import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArtifactService } from './artifact-service';
import { FileArtifactService } from './file-artifact-service';
import { InMemoryArtifactService } from './in-memory-artifact-service';

const where = { appName: 'app', userId: 'u', sessionId: 's' };
let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'toolsmith-artifacts-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.each([
  ['InMemoryArtifactService', () => new InMemoryArtifactService()],
  ['FileArtifactService', () => new FileArtifactService(join(dir, String(Math.random())))],
] as Array<[string, () => ArtifactService]>)('%s', (_name, make) => {
  it('versions from 0, loads latest or a given version, lists and deletes', async () => {
    const service = make();
    expect(await service.saveArtifact({ ...where, filename: 'a.txt', artifact: { text: 'v0' } })).toBe(0);
    expect(await service.saveArtifact({ ...where, filename: 'a.txt', artifact: { text: 'v1' } })).toBe(1);
    expect(await service.loadArtifact({ ...where, filename: 'a.txt' })).toEqual({ text: 'v1' });
    expect(await service.loadArtifact({ ...where, filename: 'a.txt', version: 0 })).toEqual({ text: 'v0' });
    expect(await service.loadArtifact({ ...where, filename: 'a.txt', version: 7 })).toBeUndefined();
    expect(await service.loadArtifact({ ...where, filename: 'none' })).toBeUndefined();
    expect(await service.listVersions({ ...where, filename: 'a.txt' })).toEqual([0, 1]);
    await service.deleteArtifact({ ...where, filename: 'a.txt' });
    expect(await service.loadArtifact({ ...where, filename: 'a.txt' })).toBeUndefined();
  });

  it('shares user: files across sessions of the user only', async () => {
    const service = make();
    await service.saveArtifact({ ...where, filename: 'user:profile.png', artifact: { inlineData: { mimeType: 'image/png', data: 'AA==' } } });
    await service.saveArtifact({ ...where, filename: 'note', artifact: { text: 'n' } });
    expect(await service.listArtifactKeys(where)).toEqual(['note', 'user:profile.png']);
    expect(await service.listArtifactKeys({ ...where, sessionId: 'other' })).toEqual(['user:profile.png']);
    expect(await service.listArtifactKeys({ ...where, userId: 'v' })).toEqual([]);
  });

  it('refuses names that could escape their directory', async () => {
    const service = make();
    await expect(service.saveArtifact({ ...where, filename: '..', artifact: { text: 'x' } })).rejects.toMatchObject({ code: 'INVALID_ARTIFACT_NAME' });
    await expect(service.saveArtifact({ ...where, sessionId: '..', filename: 'f', artifact: { text: 'x' } })).rejects.toMatchObject({ code: 'INVALID_ARTIFACT_NAME' });
  });
});

it('FileArtifactService keeps slashes in names inside the root', async () => {
  const root = join(dir, 'slashes');
  const service = new FileArtifactService(root);
  await service.saveArtifact({ ...where, filename: '../../etc/passwd', artifact: { text: 'x' } });
  expect(await readdir(join(root, 'app', 'u', 'sessions', 's'))).toEqual([encodeURIComponent('../../etc/passwd')]);
  expect(await service.listArtifactKeys(where)).toEqual(['../../etc/passwd']);
});
