/** Addresses that accept connections on every interface: no Host allow-list can be derived from them. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '', '[::]']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * The `Host` header values a server bound to `bindHost:port` answers (DNS-rebinding protection): the bind
 * address itself (and the loopback names `127.0.0.1`, `localhost`, `[::1]` for a loopback bind), with and
 * without the port. `undefined` for a wildcard bind (`0.0.0.0`, `::`): no list can be derived, so the
 * operator must give one or accept any Host.
 */
export function defaultAllowedHosts(bindHost: string, port: number): string[] | undefined {
  if (WILDCARD_HOSTS.has(bindHost)) return undefined;
  const names = LOOPBACK_HOSTS.has(bindHost) ? ['127.0.0.1', 'localhost', '[::1]'] : [bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost];
  return names.flatMap((name) => [name, `${name}:${port}`]);
}
