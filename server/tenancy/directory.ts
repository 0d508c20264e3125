import type { Db } from '../db/database.ts';
import type { Tenant } from '../auth/context.ts';

/**
 * Tenants by slug, remembered briefly: every API call needs its tenant and tenants rarely change.
 * Unknown slugs are remembered too (a scan of random subdomains costs one query per slug per TTL), and
 * concurrent misses for one slug share one query.
 */
export class TenantDirectory {
  private readonly entries = new Map<string, { tenant: Promise<Tenant | undefined>; expires: number }>();

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 1_000,
    private readonly clock: () => number = Date.now,
  ) {}

  find(slug: string): Promise<Tenant | undefined> {
    const now = this.clock();
    const entry = this.entries.get(slug);
    if (entry && entry.expires > now) return entry.tenant;
    if (entry) this.entries.delete(slug);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    const tenant = this.load(slug);
    this.entries.set(slug, { tenant, expires: now + this.ttlMs });
    // A failed query is not an answer: the next request asks the database again.
    tenant.catch(() => {
      if (this.entries.get(slug)?.tenant === tenant) this.entries.delete(slug);
    });
    return tenant;
  }

  /** After a change to a tenant (setup completed, trial extended): without a slug, forget all. */
  forget(slug?: string): void {
    if (slug === undefined) this.entries.clear();
    else this.entries.delete(slug);
  }

  private async load(slug: string): Promise<Tenant | undefined> {
    const row = await this.db
      .selectFrom('tenants')
      .select(['id', 'slug', 'name', 'setup_completed', 'trial_ends_at'])
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!row) return undefined;
    return Object.freeze({
      id: Number(row.id),
      slug: row.slug,
      name: row.name,
      setupCompleted: Boolean(row.setup_completed),
      trialEndsAt: row.trial_ends_at ? new Date(row.trial_ends_at) : null,
    });
  }
}
