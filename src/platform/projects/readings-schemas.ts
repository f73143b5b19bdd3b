// The battery readings page as the project's and each camera's readings routes show it.
import { Type } from 'typebox';
import { PageMeta, PageQuery } from '../../lib/http/pagination.js';

const Reading = Type.Object({
  camera_exid: Type.String(),
  voltage: Type.Number(),
  percentage: Type.Union([Type.Number(), Type.Null()]),
  recorded_at: Type.String(),
});
export const ReadingsQuery = Type.Object({
  from: Type.Optional(Type.String({ maxLength: 40 })),
  to: Type.Optional(Type.String({ maxLength: 40 })),
  ...PageQuery,
});
export const ReadingsPage = Type.Object({ meta: PageMeta, data: Type.Array(Reading) });
