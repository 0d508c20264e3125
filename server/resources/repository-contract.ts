/**
 * The types the generic record calls (repository.ts) share with the modules they serve: what they
 * need to run and what a list page answers. A leaf module, so that a per-resource module the
 * repository reaches through its hooks (attachments/access.ts) and the version shaping it feeds
 * (versions.ts) need not import the repository back (tests/unit/import-cycles.test.ts).
 */
import type { Db } from '../db/database.ts';
import type { Row } from '../query/relations.ts';
import type { Registry } from '../schema/registry.ts';
import type { BodyValidation } from '../schema/validate.ts';
import type { PasswordHashing } from '../auth/password-hashing.ts';
import type { Paginated as Page } from '../../common/page.ts';

/** A list page of records (common/page.ts: the apps read the same type). */
export type Paginated = Page<Row>;

export interface Deps {
  db: Db;
  registry: Registry;
  validation: BodyValidation;
  /** The app's password hashing (auth plugin); only the records API, which may set passwords, has it. */
  passwords?: PasswordHashing;
}
