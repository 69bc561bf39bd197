import { link, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { FileArtifactService } from './file-artifact-service';
import { NoFollowDir } from './no-follow-dir';

const where = { appName: 'app', userId: 'u', sessionId: 's' };
let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'toolsmith-nofollow-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Every entry under `path`, directories too, recursively (links listed, not followed). */
async function entriesUnder(path: string): Promise<string[]> {
  const entries = await readdir(path, { recursive: true, withFileTypes: true });
  return entries.map((entry) => join(entry.parentPath, entry.name)).sort();
}

const onLinux = process.platform === 'linux' ? it : it.skip;

onLinux('a directory swapped for a link after it was opened still receives the write (Linux: through its descriptor)', async () => {
  const root = join(dir, 'root');
  const outside = join(dir, 'outside');
  await mkdir(join(root, 'app', 'u'), { recursive: true });
  await mkdir(outside);
  const rootDir = await NoFollowDir.openRoot(root);
  const opened = (await NoFollowDir.openBelow(rootDir, ['app', 'u'], false))!;
  try {
    // The attacker's move, exactly between our check (the open) and our use (the write).
    await rename(join(root, 'app', 'u'), join(root, 'app', 'u-moved'));
    await symlink(outside, join(root, 'app', 'u'));
    await writeFile(opened.childPath('0.json'), '{}', { flag: 'wx' });
  } finally {
    await opened.close();
    await rootDir.close();
  }
  expect(await readdir(outside)).toEqual([]);
  expect(await readdir(join(root, 'app', 'u-moved'))).toEqual(['0.json']);
});

it('refuses a version file that is a hard link to a file elsewhere, and reads nothing of it', async () => {
  const root = join(dir, 'root');
  const service = new FileArtifactService(root);
  await service.saveArtifact({ ...where, filename: 'f', artifact: { text: 'mine' } });
  const secret = join(dir, 'secret.json');
  await writeFile(secret, JSON.stringify({ text: 'not yours' }));
  await link(secret, join(root, 'app', 'u', 'sessions', 's', 'f', '1.json'));

  await expect(service.loadArtifact({ ...where, filename: 'f' })).rejects.toMatchObject({ code: 'ARTIFACT_OUTSIDE_ROOT' });
  await expect(service.loadArtifact({ ...where, filename: 'f', version: 1 })).rejects.toMatchObject({ code: 'ARTIFACT_OUTSIDE_ROOT' });
  expect(await service.loadArtifact({ ...where, filename: 'f', version: 0 })).toEqual({ text: 'mine' });
  // Deleting removes the link, never the file it names.
  await service.deleteArtifact({ ...where, filename: 'f' });
  expect(JSON.parse(await readFile(secret, 'utf8'))).toEqual({ text: 'not yours' });
  expect(await service.listVersions({ ...where, filename: 'f' })).toEqual([]);
});

it('deleting an artifact whose directory holds a link to a directory elsewhere removes the link only', async () => {
  const root = join(dir, 'root');
  const service = new FileArtifactService(root);
  await service.saveArtifact({ ...where, filename: 'f', artifact: { text: 'mine' } });
  const outside = join(dir, 'outside');
  await mkdir(outside);
  await writeFile(join(outside, '0.json'), '{}');
  await symlink(outside, join(root, 'app', 'u', 'sessions', 's', 'f', 'planted'));

  await service.deleteArtifact({ ...where, filename: 'f' });
  expect(await readdir(outside)).toEqual(['0.json']);
  expect(await service.listArtifactKeys(where)).toEqual([]);
});

onLinux('an attacker swapping a directory for a link in a loop never gets a file written, read or deleted outside the root', async () => {
  const root = join(dir, 'root');
  const outside = join(dir, 'outside');
  await mkdir(outside);
  await writeFile(join(outside, 'victim.json'), JSON.stringify({ text: 'outside' }));
  const service = new FileArtifactService(root);
  await service.saveArtifact({ ...where, filename: 'f', artifact: { text: 'seed' } });

  // The attacker runs on its own thread, swapping <root>/app/u/sessions for a link to `outside` and back
  // as fast as it can, until told to stop; it starts before the first save and stops after the last one.
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const attacker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const fs = require('node:fs');
     const { stop, target, aside, outside } = workerData;
     let swaps = 0;
     require('node:worker_threads').parentPort.postMessage('started');
     while (Atomics.load(stop, 0) === 0) {
       try { fs.renameSync(target, aside); } catch {}
       try { fs.symlinkSync(outside, target); swaps++; } catch {}
       try { fs.unlinkSync(target); } catch {}
       try { fs.renameSync(aside, target); } catch {}
     }
     require('node:worker_threads').parentPort.postMessage(swaps);`,
    { eval: true, workerData: { stop, target: join(root, 'app', 'u', 'sessions'), aside: join(root, 'app', 'u', 'sessions-aside'), outside } },
  );
  const messages: unknown[] = [];
  const started = new Promise((resolve) => attacker.once('message', resolve));
  const finished = new Promise<number>((resolve) => attacker.on('message', (m) => messages.push(m) && typeof m === 'number' && resolve(m)));
  await started;

  const outcomes = { stored: 0, refused: 0 };
  for (let i = 0; i < 300; i++) {
    const results = await Promise.allSettled([
      service.saveArtifact({ ...where, filename: `f${i % 3}`, artifact: { text: `v${i}` } }),
      service.loadArtifact({ ...where, filename: 'f0' }),
      service.deleteArtifactVersion({ ...where, filename: 'f1', version: 0 }),
      service.listArtifactKeys(where),
    ]);
    for (const result of results) {
      if (result.status === 'fulfilled') outcomes.stored++;
      // Refusals are fine; what matters is that nothing escaped. Any other failure is a file-system race error.
      else {
        outcomes.refused++;
        expect(['ARTIFACT_OUTSIDE_ROOT', 'ENOENT']).toContain((result.reason as { code?: string }).code);
      }
    }
  }
  Atomics.store(stop, 0, 1);
  const swaps = await finished;
  await attacker.terminate();

  expect(swaps).toBeGreaterThan(0);
  // Not a file, not even a directory, was made outside; the file there is intact.
  expect(await entriesUnder(outside)).toEqual([join(outside, 'victim.json')]);
  expect(JSON.parse(await readFile(join(outside, 'victim.json'), 'utf8'))).toEqual({ text: 'outside' });
});

it('saves racing a delete of a new artifact each land before the delete (and go) or after it (and stay): none fails', async () => {
  const service = new FileArtifactService(join(dir, 'root'));
  for (let round = 0; round < 40; round++) {
    const filename = `f${round}`;
    const saves = Array.from({ length: 1 + (round % 5) }, (_, i) => service.saveArtifact({ ...where, filename, artifact: { text: `v${i}` } }));
    const results = await Promise.allSettled([...saves, service.deleteArtifact({ ...where, filename })]);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    // Whatever survived is readable, numbered from 0 or continuing, and no version is lost without a delete.
    const versions = await service.listVersions({ ...where, filename });
    for (const version of versions) expect(await service.loadArtifact({ ...where, filename, version })).toMatchObject({ text: expect.any(String) });
  }
});

it('makes a missing root on first use, and again when it is removed while the service lives; a file as root is refused', async () => {
  const root = join(dir, 'a', 'b', 'root');
  const service = new FileArtifactService(root);
  await service.saveArtifact({ ...where, filename: 'f', artifact: { text: 'one' } });
  await rm(join(dir, 'a'), { recursive: true });
  expect(await service.loadArtifact({ ...where, filename: 'f' })).toBeUndefined();
  await service.saveArtifact({ ...where, filename: 'f', artifact: { text: 'two' } });
  expect(await service.loadArtifact({ ...where, filename: 'f' })).toEqual({ text: 'two' });
  await writeFile(join(dir, 'file-root'), 'x');
  await expect(new FileArtifactService(join(dir, 'file-root')).saveArtifact({ ...where, filename: 'f', artifact: { text: 'x' } })).rejects.toMatchObject({ code: 'ENOTDIR' });
});
