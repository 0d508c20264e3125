import type { ResourceFolder } from '../folder-contract.ts';
import { resetTwoFactorActions } from './reset-two-factor.ts';

/** Operators' calls beyond CRUD; the reset of a second factor serves `clients` (the other view on users) too. */
export default {
  actions: [resetTwoFactorActions],
} satisfies ResourceFolder;
