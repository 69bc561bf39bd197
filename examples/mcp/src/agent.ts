import { join } from 'node:path';
import { createWeatherAgent } from './weather-agent';

/**
 * `node dist/agent.js [question]` starts the weather MCP server (dist/serve.js) as a child process and
 * asks the agent; `--url http://127.0.0.1:3000/mcp` uses a server that is already running instead.
 */
async function main(argv: string[]): Promise<void> {
  const urlFlag = argv.indexOf('--url');
  const url = urlFlag === -1 ? undefined : argv[urlFlag + 1];
  const words = urlFlag === -1 ? argv : argv.filter((_, i) => i !== urlFlag && i !== urlFlag + 1);
  const question = words.join(' ') || 'What is the weather in Paris?';
  const runner = createWeatherAgent({
    server: url ? { url } : { command: process.execPath, args: [join(__dirname, 'serve.js')], stderr: 'ignore' },
  });
  try {
    console.log(`user> ${question}`);
    for await (const event of runner.run({ userId: 'demo', sessionId: 'demo', newMessage: { role: 'user', parts: [{ text: question }] } })) {
      for (const call of event.functionCalls()) console.log(`  call ${call.name}(${JSON.stringify(call.args)})`);
      for (const response of event.functionResponses()) console.log(`  ${response.name} -> ${JSON.stringify(response.response)}`);
      if (event.isFinalResponse()) console.log(`${event.author}> ${event.text()}`);
    }
  } finally {
    await runner.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
