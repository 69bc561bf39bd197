const b = require('../dist/turn.bench.js');
const { Runner, LlmAgent } = require('@toolsmith/core');
(async () => {
  const runner = new Runner({ appName: 'bench', agent: new LlmAgent({ name: 'agent', model: b.scriptedModel(), instruction: 'You report the weather.', tools: b.tools(3) }) });
  let s = 0;
  const N = +process.argv[2] || 200000;
  for (let i = 0; i < 20000; i++) await b.toolsmithTurn(runner, 's' + s++, 'Weather in Paris?');
  const t = process.cpuUsage();
  for (let i = 0; i < N; i++) await b.toolsmithTurn(runner, 's' + s++, 'Weather in Paris?');
  const u = process.cpuUsage(t); console.log((u.user + u.system) / N, 'us/turn');
})();
