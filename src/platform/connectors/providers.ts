// Every connector the platform offers, in the order the provider list shows them. Add one line per
// provider (see framework/index.ts).
import type { ConnectorProvider } from './framework/provider.js';
import { voyageControlProvider } from './voyage-control/provider.js';
import { doorbellProvider } from './doorbell/provider.js';
import { weatherstackProvider } from './weather/weatherstack.js';
import { aerisweatherProvider } from './weather/aerisweather.js';
import { procore } from './procore/provider.js';
import { acc } from './acc/provider.js';
import { aconex } from './aconex/provider.js';

export const CONNECTOR_PROVIDERS: readonly ConnectorProvider[] = [
  procore,
  acc,
  aconex,
  voyageControlProvider,
  doorbellProvider,
  weatherstackProvider,
  aerisweatherProvider,
];
