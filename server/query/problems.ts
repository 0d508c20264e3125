/**
 * The parser's answer to a bad query: every problem it finds, keyed by where in the query string it sits,
 * thrown at once as one 422 (a client fixes them all in one go instead of one per round trip).
 */
import { ValidationError } from '../http/errors.ts';

export class Problems {
  readonly errors: Record<string, string[]> = {};
  add(key: string, line: string): void {
    (this.errors[key] ??= []).push(line);
  }
  throwIfAny(): void {
    if (Object.keys(this.errors).length > 0) throw new ValidationError(this.errors);
  }
}
