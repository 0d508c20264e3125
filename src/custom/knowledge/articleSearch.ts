/**
 * The knowledge base's full-text search as the apps ask it (GET /api/knowledge-articles/search), shared
 * by the portal's suggestions under a new ticket's description and the back office's article-link picker.
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useActionsProvider } from '../detail/recordActions.tsx';

export const ARTICLES = 'knowledge-articles';

export interface ArticleHit {
  id: number;
  title: string;
  excerpt: string;
  public: boolean;
}

/** `value`, once it has stayed the same for `delay` ms: typing asks the server once per pause. */
export function useDelayed<T>(value: T, delay: number): T {
  const [delayed, setDelayed] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDelayed(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return delayed;
}

/** The best matches for `text` (at least `min` characters), at most `limit`. */
export function useArticleSearch(text: string, { limit = 5, min = 3, enabled = true } = {}) {
  const dataProvider = useActionsProvider();
  const q = text.trim().slice(0, 2000);
  return useQuery({
    queryKey: [ARTICLES, 'search', q, limit],
    queryFn: async () =>
      (
        await dataProvider.call<{ data: ArticleHit[] }>(
          'GET',
          `${ARTICLES}/search?${new URLSearchParams({ q, limit: String(limit) })}`,
        )
      ).data,
    enabled: enabled && q.length >= min,
    staleTime: 30_000,
    placeholderData: (previous) => previous,
  });
}
