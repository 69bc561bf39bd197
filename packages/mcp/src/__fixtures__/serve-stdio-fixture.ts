// A Toolsmith process serving the test tools over stdio (spawned by serve-mcp tests).
import { serveMcp } from '../serve-mcp';
import { ForecastApi, ForecastTools } from './forecast-tools';
import { createServedTestTools } from './served-tools';

void serveMcp({
  tools: [...Object.values(createServedTestTools()), ForecastTools],
  providers: [{ provide: ForecastApi, useValue: new ForecastApi('stdio-stub') }],
  transport: 'stdio',
  name: 'served-fixture',
});
