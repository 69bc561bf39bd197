import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A registry for one npm scope, on loopback, serving packed tarballs. */
export interface ScopeRegistry {
  /** The registry's URL, for `npm_config_@scope:registry`. */
  readonly url: string;
  /** The environment that points npm at it for the scope (every other package still comes from npm's registry). */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

interface Packed {
  manifest: Record<string, unknown> & { name: string; version: string };
  file: string;
  bytes: Buffer;
}

/**
 * Serves the given tarballs as the registry of their scope, so `npm install @toolsmith/core`, exactly as
 * a user types it, installs the packed package: npm asks this server for the scope's packages (their
 * package.json as a one-version packument, then the tarball) and the public registry for all others.
 */
export async function serveScopeRegistry(scope: string, tarballs: readonly string[]): Promise<ScopeRegistry> {
  const packages = new Map<string, Packed>();
  for (const file of tarballs) {
    const text = spawnSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' }).stdout;
    const manifest = JSON.parse(text) as Packed['manifest'];
    packages.set(manifest.name, { manifest, file, bytes: readFileSync(file) });
  }
  const server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]);
    const tarball = /^\/-\/(.+)$/.exec(path);
    if (tarball) {
      const found = [...packages.values()].find((entry) => tarballName(entry) === tarball[1]);
      if (found) {
        response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': found.bytes.length });
        response.end(found.bytes);
        return;
      }
    }
    const found = packages.get(path.slice(1));
    if (!found) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'not found' }));
      return;
    }
    const { name, version } = found.manifest;
    const dist = {
      tarball: `${url}/-/${tarballName(found)}`,
      shasum: createHash('sha1').update(found.bytes).digest('hex'),
      integrity: `sha512-${createHash('sha512').update(found.bytes).digest('base64')}`,
    };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ name, 'dist-tags': { latest: version }, versions: { [version]: { ...found.manifest, _id: `${name}@${version}`, dist } } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: { [`npm_config_${scope}:registry`]: `${url}/` },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function tarballName({ manifest }: Packed): string {
  return `${manifest.name.replace('/', '-').replace(/^@/, '')}-${manifest.version}.tgz`;
}
