// `overlook up` runs the main API's companions in the same process: the MCP server, the AI API and the
// Labs API, each on its own port (contract §1), all pointed at the main API that `up` started.
import { resolveAddress } from '../lib/config.js';
import { buildAiApp } from '../ai/app.js';
import { buildLabsApp } from '../labs/app.js';
import { startMcp } from '../mcp/command.js';

export interface Companions {
  mcp: { url: string; resourceUrl: string };
  ai: string;
  labs: string;
  close(): Promise<void>;
}

export async function startCompanions(apiUrl: string, flags: { host?: string }, env = process.env): Promise<Companions> {
  const mcp = await startMcp({ host: flags.host, apiUrl }, env);
  const ai = await buildAiApp({ apiUrl });
  const aiUrl = await ai.listen(resolveAddress('ai', { host: flags.host }, env));
  const labs = await buildLabsApp({ apiUrl });
  const labsUrl = await labs.listen(resolveAddress('labs', { host: flags.host }, env));
  return {
    mcp: { url: mcp.url, resourceUrl: mcp.resourceUrl },
    ai: aiUrl,
    labs: labsUrl,
    async close() {
      await Promise.allSettled([mcp.app.close(), ai.close(), labs.close()]);
    },
  };
}
