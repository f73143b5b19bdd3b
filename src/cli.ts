#!/usr/bin/env node
// The `overlook` command (README.md). Node's compile cache is switched on before the program loads, so
// a start after the first reads the compiled code of its modules from disk instead of compiling them
// again (NODE_COMPILE_CACHE names its folder; the default is under the system's temp dir).
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./cli/program.js');
