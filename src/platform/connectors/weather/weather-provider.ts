// What the weather connectors' routes need from a provider: how to read the weather now and over one day
// at a point through the framework's client. Each provider turns its own API into `weather-record.ts`.
import type { ProviderClient } from '../framework/provider-client.js';
import type { DayReading, WeatherReading } from './weather-record.js';

export interface Point {
  lat: number;
  lng: number;
}

export interface WeatherApi {
  current(client: ProviderClient, userId: string, at: Point): Promise<WeatherReading & { place: string | null }>;
  day(client: ProviderClient, userId: string, at: Point, date: string): Promise<DayReading & { place: string | null }>;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null;
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
