/** Pagination links for any paged list: what the reader sees ("Prompts 26–50 of 500") and where each link goes. */
import { formatCount } from './format';

export interface PageLink {
  page: number;
  href: string;
  current: boolean;
}

export interface PaginationView {
  page: number;
  pages: number;
  rangeLabel: string;
  previousHref: string | null;
  nextHref: string | null;
  /** First, last, and up to two pages either side of the current one; null marks a gap. */
  links: (PageLink | null)[];
}

export function paginationView(page: number, pageSize: number, total: number, noun: string, hrefFor: (page: number) => string): PaginationView {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const wanted = new Set([1, pages, page - 2, page - 1, page, page + 1, page + 2].filter((p) => p >= 1 && p <= pages));
  const sorted = [...wanted].sort((a, b) => a - b);
  const links: (PageLink | null)[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - (sorted[i - 1] as number) > 1) links.push(null);
    links.push({ page: p, href: hrefFor(p), current: p === page });
  });
  return {
    page,
    pages,
    rangeLabel: total === 0 ? `No ${noun}` : first > total ? `Past the last page of ${formatCount(total)} ${noun}` : `${noun[0]?.toUpperCase()}${noun.slice(1)} ${formatCount(first)}–${formatCount(last)} of ${formatCount(total)}`,
    previousHref: page > 1 ? hrefFor(Math.min(page - 1, pages)) : null,
    nextHref: page < pages ? hrefFor(page + 1) : null,
    links,
  };
}
