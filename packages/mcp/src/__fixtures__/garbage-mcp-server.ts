// A broken "MCP server" over stdio for error-path tests. It answers the handshake and the tool list
// correctly, then misbehaves on calls. It is hand-written JSON-RPC on purpose: the SDK's own server
// cannot be made to send invalid results.
import { createInterface } from 'node:readline';

const send = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line) as { id?: number; method: string; params?: { protocolVersion?: string; name?: string } };
  if (request.id === undefined) return; // notifications
  switch (request.method) {
    case 'initialize':
      return send({
        jsonrpc: '2.0',
        id: request.id,
        result: { protocolVersion: request.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'garbage', version: '0' } },
      });
    case 'tools/list':
      return send({
        jsonrpc: '2.0',
        id: request.id,
        result: {
          tools: [
            { name: 'malformed', inputSchema: { type: 'object' } },
            { name: 'noise', inputSchema: { type: 'object' } },
            { name: 'rpc_error', inputSchema: { type: 'object' } },
          ],
        },
      });
    case 'tools/call':
      if (request.params?.name === 'malformed') return send({ jsonrpc: '2.0', id: request.id, result: { content: 'not a list' } });
      if (request.params?.name === 'noise') return process.stdout.write('this is not JSON at all\n');
      return send({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: 'internal meltdown' } });
    default:
      return send({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } });
  }
});
