// An MCP server over stdio whose tool list is hostile or broken in the ways HOSTILE (a comma-separated
// list) names, beside one good tool. Hand-written JSON-RPC on purpose: the SDK's own server does not
// list schemas or names like these. A call answers with its name and arguments as text.
import { createInterface } from 'node:readline';

const send = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);
const hostile = new Set((process.env.HOSTILE ?? '').split(','));

const object = { type: 'object' };
const tools: object[] = [{ name: 'good', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } }];
if (hostile.has('redos')) {
  tools.push({ name: 'nested', inputSchema: { type: 'object', properties: { x: { type: 'string', pattern: '^(a+)+$' } } } });
  tools.push({ name: 'unanchored', inputSchema: { type: 'object', properties: { x: { type: 'string', pattern: '[a-z]+x' } }, patternProperties: { '^(b+)+$': { type: 'number' } } } });
  tools.push({ name: 'lookahead', inputSchema: { type: 'object', properties: { x: { type: 'string', pattern: '^(?=a)a+$' } } } });
}
if (hostile.has('invalid')) tools.push({ name: 'bad_schema', inputSchema: { type: 'object', properties: { x: { type: 'JSONType' } } } });
if (hostile.has('reserved')) tools.push({ name: 'toolsmith_request_confirmation', inputSchema: object }, { name: 'toolsmith_request_credential', inputSchema: object });
if (hostile.has('clash')) tools.push({ name: 'a.b', inputSchema: object }, { name: 'a_b', inputSchema: object }, { name: `${'x'.repeat(64)}1`, inputSchema: object }, { name: `${'x'.repeat(64)}2`, inputSchema: object });
if (hostile.has('malformed')) tools.push({ name: 'not_an_object', inputSchema: { type: 'string' } }, { name: 42, inputSchema: object });

createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line) as { id?: number; method: string; params?: { protocolVersion?: string; name?: string; arguments?: unknown } };
  if (request.id === undefined) return; // notifications
  switch (request.method) {
    case 'initialize':
      return send({
        jsonrpc: '2.0',
        id: request.id,
        result: { protocolVersion: request.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '0' } },
      });
    case 'tools/list':
      return send({ jsonrpc: '2.0', id: request.id, result: { tools } });
    case 'tools/call':
      return send({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: `called ${request.params?.name} with ${JSON.stringify(request.params?.arguments)}` }] } });
    default:
      return send({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } });
  }
});
