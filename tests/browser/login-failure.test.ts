/** The login page says why a login failed in the user's language (issue 4: clear error text, rate limit). */
import { describe, expect, it } from 'vitest';
import { HttpError } from 'ra-core';
import { loginFailure } from '../../src/shell/LoginPage.tsx';
import { BAD_CREDENTIALS_MESSAGE } from '../../src/shell/errorCatalogue.ts';
import { tooManyText } from '../../src/authProvider/wait.ts';
import { passwordRuleKey } from '../../src/authProvider/password-rules.ts';
import nl from '../../src/i18n/nl/app.ts';
import en from '../../src/i18n/en/app.ts';
import de from '../../src/i18n/de/app.ts';

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

  it('says how many seconds to wait while an account is slowed down', () => {
    const error = new HttpError('Too many login attempts. Please try again in 30 seconds.', 429, {});
    expect(loginFailure(error, translate)).toBe('app.auth.too_many_attempts_seconds {"smart_count":30}');
  });

  it('never shows the server’s English: logged in elsewhere (SPEC 8), no answer, anything else', () => {
    expect(
      loginFailure(new HttpError('You cannot have multiple login sessions per account.', 401, {}), translate),
    ).toBe('app.errors.logged_in_elsewhere');
    expect(loginFailure(new TypeError('Failed to fetch'), translate)).toBe('app.errors.network');
    expect(loginFailure(new HttpError('The username field is required.', 422, {}), translate)).toBe(
      'ra.auth.sign_in_error',
    );
    expect(loginFailure(new HttpError('Service unavailable.', 503, {}), translate)).toBe(
      'ra.auth.sign_in_error',
    );
    expect(loginFailure(new Error(''), translate)).toBe('ra.auth.sign_in_error');
  });
});

describe('the reset pages', () => {
  it('say a refused reset request with the wait the server names, in seconds or minutes', () => {
    expect(
      tooManyText(
        'app.auth.too_many_reset_requests',
        'Too many password reset requests. Please try again in 4 seconds.',
        translate,
      ),
    ).toBe('app.auth.too_many_reset_requests_seconds {"smart_count":4}');
    expect(
      tooManyText(
        'app.auth.too_many_reset_requests',
        'Too many password reset requests. Please try again in 15 minutes.',
        translate,
      ),
    ).toBe('app.auth.too_many_reset_requests {"smart_count":15}');
  });

  it('name the password rule the server refused, and nothing for other refusals', () => {
    expect(passwordRuleKey({ password: ['The password may not be one character repeated.'] })).toBe(
      'app.auth.password_repeated',
    );
    expect(
      passwordRuleKey({ password: ['The password is one of the most common passwords. Choose another.'] }),
    ).toBe('app.auth.password_common');
    expect(
      passwordRuleKey({ password: ['The password may not contain the e-mail address or its name part.'] }),
    ).toBe('app.auth.password_has_email');
    expect(
      passwordRuleKey({ token: ['This password reset link is invalid or has expired.'] }),
    ).toBeUndefined();
    expect(passwordRuleKey(undefined)).toBeUndefined();
  });

  it('have the new texts in every language', () => {
    const keys = [
      'too_many_attempts_seconds',
      'too_many_reset_requests',
      'too_many_reset_requests_seconds',
      'password_repeated',
      'password_common',
      'password_has_email',
    ] as const;
    for (const messages of [nl, en, de]) {
      const auth = (messages as { app: { auth: Record<string, string> } }).app.auth;
      for (const key of keys) expect(auth[key], key).toMatch(/\S/);
    }
  });
});
