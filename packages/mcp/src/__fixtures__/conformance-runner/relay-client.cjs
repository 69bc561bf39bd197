// The client command the conformance CLI starts for each `auth/*` scenario (mcp-conformance.e2e.test.ts):
// it hands the scenario (server URL, name, context) to the test process, which runs McpToolset against
// it (conformance-auth-driver.ts), and exits with the outcome: 0, or 1 with the client's error on stderr.
// Usage: node relay-client.cjs <driver url> <server url>
const [driver, serverUrl] = process.argv.slice(2);
const body = JSON.stringify({ serverUrl, scenario: process.env.MCP_CONFORMANCE_SCENARIO, context: process.env.MCP_CONFORMANCE_CONTEXT ?? '{}' });
fetch(driver, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  .then((response) => response.json())
  .then(({ error }) => {
    if (error) {
      process.stderr.write(`${error}\n`);
      process.exitCode = 1;
    }
  })
  .catch((error) => {
    process.stderr.write(`${error}\n`);
    process.exitCode = 1;
  });
