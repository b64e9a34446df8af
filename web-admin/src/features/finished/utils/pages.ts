/**
 * Keyset paging forwards and back. The server gives only the next page's cursor, so this keeps the
 * cursors of the pages already seen in order to go back. The first page's cursor is null.
 */
export interface PageTrail {
  /** The cursor of each page from the first to the one shown. */
  readonly cursors: readonly (string | null)[]
}

export const FIRST_PAGE: PageTrail = { cursors: [null] }

export function currentCursor(trail: PageTrail): string | null {
  return trail.cursors[trail.cursors.length - 1]
}

export function pageNumber(trail: PageTrail): number {
  return trail.cursors.length
}

export function nextPage(trail: PageTrail, next: string): PageTrail {
  return { cursors: [...trail.cursors, next] }
}

export function previousPage(trail: PageTrail): PageTrail {
  return trail.cursors.length > 1 ? { cursors: trail.cursors.slice(0, -1) } : trail
}
