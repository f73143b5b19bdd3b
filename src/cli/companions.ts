// `overlook up` runs the main API's companions in the same process: the MCP server, the AI API and the
// Labs API, each on its own port (README.md), all pointed at the main API that `up` started.
import { companionConfig, processEnv, type Env } from '../lib/config.js';
import { loggerOptions } from '../lib/logger.js';
import { buildAiApp } from '../ai/app.js';
import { buildLabsApp } from '../labs/app.js';
import { startMcp } from '../mcp/command.js';

export interface Companions {
  mcp: { url: string; resourceUrl: string };
  ai: string;
  labs: string;
  close(): Promise<void>;
}

export async function startCompanions(apiUrl: string, flags: { host?: string }, env: Env = processEnv()): Promise<Companions> {
  const mcp = await startMcp({ host: flags.host, apiUrl }, env);
  const aiConfig = companionConfig('ai', { host: flags.host }, env);
  const ai = await buildAiApp({ apiUrl, logger: loggerOptions(aiConfig.logLevel) });
  const aiUrl = await ai.listen(aiConfig.address);
  const labsConfig = companionConfig('labs', { host: flags.host }, env);
  const labs = await buildLabsApp({ apiUrl, logger: loggerOptions(labsConfig.logLevel) });
  const labsUrl = await labs.listen(labsConfig.address);
  return {
    mcp: { url: mcp.url, resourceUrl: mcp.resourceUrl },
    ai: aiUrl,
    labs: labsUrl,
    async close() {
      await Promise.allSettled([mcp.app.close(), ai.close(), labs.close()]);
    },
  };
}
