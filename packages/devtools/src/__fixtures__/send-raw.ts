import { request as httpRequest } from 'node:http';
import type { DevServer } from '../start-dev-server';

/** What the dev server answered a raw request. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A raw request (fetch cannot set Host or drop the token at will); the token is sent unless `token: null`. */
export function sendRaw(server: DevServer, options: { method?: string; path: string; headers?: Record<string, string>; body?: string; token?: string | null }): Promise<RawAnswer> {
  const token = options.token === undefined ? server.token : options.token;
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: server.port, method: options.method ?? 'GET', path: options.path, headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...options.headers } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
