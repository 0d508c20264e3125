/** The login page says why a login failed in the user's language (issue 4: clear error text, rate limit). */
import { describe, expect, it } from 'vitest';
import { HttpError } from 'ra-core';
import { loginFailure } from '../../src/shell/LoginPage.tsx';
import { BAD_CREDENTIALS_MESSAGE } from '../../src/authProvider/index.ts';

const translate = (key: string, options?: object) => `${key}${options ? ' ' + JSON.stringify(options) : ''}`;

describe('loginFailure', () => {
  it('names wrong credentials in the user’s language', () => {
    const error = new HttpError(BAD_CREDENTIALS_MESSAGE, 422, {});
    expect(loginFailure(error, translate)).toBe('app.auth.invalid_credentials');
  });

  it('says how many minutes to wait after too many attempts', () => {
    const error = new HttpError('Too many login attempts. Please try again in 14 minutes.', 429, {});
    expect(loginFailure(error, translate)).toBe('app.auth.too_many_attempts {"smart_count":14}');
  });

  it('keeps any other server message, and has a text when there is none', () => {
    expect(loginFailure(new HttpError('The username field is required.', 422, {}), translate)).toBe(
      'The username field is required.',
    );
    expect(loginFailure(new Error(''), translate)).toBe('ra.auth.sign_in_error');
  });
});
