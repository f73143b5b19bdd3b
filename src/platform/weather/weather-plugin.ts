// Weather at a project's site from the weather provider, cached in the database.
import { defineFeature } from '../plugins/feature.js';
import { WeatherService } from './weather-service.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    weather: WeatherService;
  }
}

export const weatherFeature = defineFeature({
  name: 'weather',
  needs: ['config', 'db'],
  offers: ['weather'],
  build: ({ config, db }) => ({ weather: new WeatherService(db, config) }),
});
