import type { Server } from '@modelcontextprotocol/server';

/**
 * Who is told that a served resource changed (`notifications/resources/updated`), for
 * `McpServerHandle.notifyResourceUpdated`:
 *
 * - 2025-11-25: the MCP sessions (one server instance each) that subscribed to the URI with
 *   `resources/subscribe` and have not unsubscribed; a session's subscriptions end with it;
 * - 2026-07-28 over stdio: the connection's server, whose SDK routes the notification onto the
 *   `subscriptions/listen` streams that asked for the URI (and drops it when none did);
 * - 2026-07-28 over HTTP: `publishModern`, the SDK handler's change-event bus, which does the same for the
 *   listen streams open on the endpoint.
 */
export class ResourceSubscriptions {
  private readonly legacy = new Map<Server, Set<string>>();
  private readonly modern = new Set<Server>();
  private publishModern?: (uri: string) => void;

  /** Where 2026-07-28 listen streams over HTTP are told (the SDK handler's `notify.resourceUpdated`). */
  publishModernTo(publish: (uri: string) => void): void {
    this.publishModern = publish;
  }

  /** A 2025-era session subscribes to `uri` (again: no change). */
  subscribe(server: Server, uri: string): void {
    let uris = this.legacy.get(server);
    if (!uris) this.legacy.set(server, (uris = new Set()));
    uris.add(uri);
  }

  /** A 2025-era session unsubscribes from `uri` (not subscribed: no change). */
  unsubscribe(server: Server, uri: string): void {
    this.legacy.get(server)?.delete(uri);
  }

  /** A 2026-07-28 connection's server (stdio), whose SDK filters by the connection's listen streams. */
  trackModern(server: Server): void {
    this.modern.add(server);
  }

  /** The session or connection ended: it is told nothing more. */
  forget(server: Server): void {
    this.legacy.delete(server);
    this.modern.delete(server);
  }

  /**
   * Sends `notifications/resources/updated` for `uri` to everyone above. A session whose connection
   * fails to take it is dropped from the subscriptions (it is gone), so one closed client never keeps
   * the others from being told.
   */
  async notifyUpdated(uri: string): Promise<void> {
    const targets = [...[...this.legacy].filter(([, uris]) => uris.has(uri)).map(([server]) => server), ...this.modern];
    this.publishModern?.(uri);
    await Promise.all(
      targets.map(async (server) => {
        if (!server.transport) return; // not connected (yet, or any more)
        try {
          await server.sendResourceUpdated({ uri });
        } catch {
          this.forget(server);
        }
      }),
    );
  }
}
