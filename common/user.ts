/**
 * The signed-in user as login, refresh and `GET /api/auth/me` return it (server/auth/user.ts loads it,
 * server/auth/schemas.ts writes it; the apps keep it in localStorage: src/dataProvider/storage.ts).
 * Never a password hash.
 */
export interface UserPayload {
  id: number;
  first_name: string | null;
  last_name: string | null;
  full_name: string | null;
  /**
   * users.email may be null (nothing in the database requires one) while userSchema says string: a
   * signed-in user whose address was removed would be answered with "". Typed as stored; left as it was.
   */
  email: string | null;
  is_operator: 0 | 1 | 2;
  acronym: string | null;
  permissions_names: string[];
  modules: string[];
  configs: { name: string; value: unknown }[];
  categories: number[];
  /** `on_behalf`, `manage_access`: what the client's company role there allows (issue 39). */
  companies: { id: number; name: string; on_behalf?: boolean; manage_access?: boolean }[];
}
