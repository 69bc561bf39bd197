import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArtifactService } from './artifact-service';
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

  it.each([
    ['an over-long name', 'x'.repeat(300)],
    ['a name that is long once encoded', 'é'.repeat(50)],
    ['a lone surrogate', 'report-\ud800.txt'],
    ['a control character', 'a\u0000b'],
  ])('refuses %s with INVALID_ARTIFACT_NAME (not ENAMETOOLONG or URIError)', async (_, filename) => {
    const service = make();
    await expect(service.saveArtifact({ ...where, filename, artifact: { text: 'x' } })).rejects.toMatchObject({ code: 'INVALID_ARTIFACT_NAME' });
    await expect(service.saveArtifact({ ...where, userId: filename, filename: 'f', artifact: { text: 'x' } })).rejects.toMatchObject({ code: 'INVALID_ARTIFACT_NAME' });
    await expect(service.listArtifactKeys({ ...where, sessionId: filename })).rejects.toMatchObject({ code: 'INVALID_ARTIFACT_NAME' });
  });

  it('keys cannot collide across users whatever characters the ids hold', async () => {
    const service = make();
    // The old separator is a control character: refused in any id.
    await expect(service.saveArtifact({ appName: 'a\u0001b', userId: 'c', sessionId: 's', filename: 'f', artifact: { text: 'x' } })).rejects.toMatchObject({ code: 'INVALID_ARTIFACT_NAME' });
    // Ids that look like an encoded key stay apart too.
    await service.saveArtifact({ appName: 'a","b', userId: 'c', sessionId: 's', filename: 'f', artifact: { text: 'first user' } });
    expect(await service.loadArtifact({ appName: 'a', userId: 'b","c', sessionId: 's', filename: 'f' })).toBeUndefined();
    expect(await service.loadArtifact({ appName: 'a","b', userId: 'c', sessionId: 's', filename: 'f' })).toEqual({ text: 'first user' });
  });
});

it('FileArtifactService refuses symbolic links under its root that lead outside it', async () => {
  const root = join(dir, 'linked');
  const outside = join(dir, 'outside');
  await mkdir(join(root, 'app'), { recursive: true });
  await mkdir(join(outside, 'sessions', 's', 'secret'), { recursive: true });
  await writeFile(join(outside, 'sessions', 's', 'secret', '0.json'), JSON.stringify({ text: 'not yours' }));
  await symlink(outside, join(root, 'app', 'u')); // <root>/app/u → outside the root
  const service = new FileArtifactService(root);

  await expect(service.loadArtifact({ ...where, filename: 'secret' })).rejects.toMatchObject({ code: 'ARTIFACT_OUTSIDE_ROOT' });
  await expect(service.saveArtifact({ ...where, filename: 'planted', artifact: { text: 'x' } })).rejects.toMatchObject({ code: 'ARTIFACT_OUTSIDE_ROOT' });
  await expect(service.listArtifactKeys(where)).rejects.toMatchObject({ code: 'ARTIFACT_OUTSIDE_ROOT' });
  await expect(service.deleteArtifact({ ...where, filename: 'secret' })).rejects.toMatchObject({ code: 'ARTIFACT_OUTSIDE_ROOT' });
  expect(await readdir(join(outside, 'sessions', 's'))).toEqual(['secret']); // nothing written or deleted outside

  // A version file that is itself a link is not followed either.
  const own = new FileArtifactService(join(dir, 'filelink'));
  await own.saveArtifact({ ...where, filename: 'f', artifact: { text: 'mine' } });
  const versionDir = join(dir, 'filelink', 'app', 'u', 'sessions', 's', 'f');
  await symlink(join(outside, 'sessions', 's', 'secret', '0.json'), join(versionDir, '1.json'));
  await expect(own.loadArtifact({ ...where, filename: 'f' })).rejects.toMatchObject({ code: 'ARTIFACT_OUTSIDE_ROOT' });
  expect(JSON.parse(await readFile(join(versionDir, '0.json'), 'utf8'))).toEqual({ text: 'mine' });
});

it('FileArtifactService keeps slashes in names inside the root', async () => {
  const root = join(dir, 'slashes');
  const service = new FileArtifactService(root);
  await service.saveArtifact({ ...where, filename: '../../etc/passwd', artifact: { text: 'x' } });
  expect(await readdir(join(root, 'app', 'u', 'sessions', 's'))).toEqual([encodeURIComponent('../../etc/passwd')]);
  expect(await service.listArtifactKeys(where)).toEqual(['../../etc/passwd']);
});
