import { join } from 'node:path';
import { createWeatherOfflineModel, pickModel, printEvent } from '@toolsmith/example-kit';
import { createWeatherAgent } from './weather-agent';

/** Options of {@link main}, so tests can run the agent with their own environment and capture its output. */
export interface MainOptions {
  /** The command line after `node dist/agent.js`: the question, and `--url <url>` for a running server. */
  argv?: readonly string[];
  /** Where the provider key is read (see `pickModel`); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  print?: (line: string) => void;
}

/**
 * `node dist/agent.js [question]` starts the weather MCP server (dist/serve.js) as a child process and
 * asks the agent; `--url http://127.0.0.1:3000/mcp` uses a server that is already running instead. The
 * model is the first provider whose key is set, as in the other demos, else the offline scripted model;
 * the first line says which.
 */
export async function main(options: MainOptions = {}): Promise<void> {
  const argv = options.argv ?? process.argv.slice(2);
  const print = options.print ?? ((line: string) => console.log(line));
  const urlFlag = argv.indexOf('--url');
  const url = urlFlag === -1 ? undefined : argv[urlFlag + 1];
  const words = urlFlag === -1 ? argv : argv.filter((_, i) => i !== urlFlag && i !== urlFlag + 1);
  const question = words.join(' ') || 'What is the weather in Paris?';
  const picked = pickModel(options.env ?? process.env, createWeatherOfflineModel);
  const runner = createWeatherAgent({
    server: url ? { url } : { command: process.execPath, args: [join(__dirname, 'serve.js')], stderr: 'ignore' },
    model: picked.model,
  });
  try {
    print(`Toolsmith MCP weather agent — ${picked.description}`);
    print('');
    print(`User: ${question}`);
    for await (const event of runner.run({ userId: 'demo', sessionId: 'demo', newMessage: { role: 'user', parts: [{ text: question }] } })) {
      printEvent(event, print);
    }
  } finally {
    await runner.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
