// Pagination shared by every list: `page` (from 1) and `page_size`, answered as `{meta, data}`.
import { Type, type Static } from 'typebox';

export const MAX_PAGE_SIZE = 500;

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 })),
};

export const PageMeta = Type.Object({
  current_page: Type.Integer(),
  page_size: Type.Integer(),
  total_count: Type.Integer(),
  total_pages: Type.Integer(),
});
export type PageMeta = Static<typeof PageMeta>;

export function pageMeta(page: number, pageSize: number, total: number): PageMeta {
  return { current_page: page, page_size: pageSize, total_count: total, total_pages: Math.ceil(total / pageSize) };
}

export const pageOffset = (page: number, pageSize: number) => (page - 1) * pageSize;
