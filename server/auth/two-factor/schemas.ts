/** Bodies, answers and OpenAPI words of the two-factor calls (login-routes.ts, account-routes.ts). */
import { PUBLIC } from '../../docs/components.ts';
import { errorResponses } from '../../docs/error-answers.ts';
import { sessionSchema } from '../schemas.ts';

const challenge = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  description: 'The `challenge` of the 202 answer of POST /auth/login.',
} as const;
const code = {
  type: 'string',
  maxLength: 20,
  description: 'Six digits from the authenticator app.',
} as const;
const recoveryCode = {
  type: 'string',
  maxLength: 40,
  description: 'One of the ten recovery codes.',
} as const;
const recoveryCodes = {
  type: 'array',
  items: { type: 'string' },
  description: 'Ten single-use recovery codes, shown this once (only their hashes are kept).',
} as const;

/** The 202 of a password login when a second step is due (the login's 200 stays SPEC 7's). */
export const challengeAnswer = {
  description:
    'The password is right and a second step is due: send `challenge` with a code to ' +
    'POST /auth/login/two-factor. `enrol`: the role requires two-factor and the user has none yet; ' +
    'POST /auth/login/two-factor/enrol first.',
  type: 'object',
  required: ['two_factor', 'challenge', 'enrol', 'expires_in'],
  properties: {
    two_factor: { type: 'boolean', const: true },
    challenge: { type: 'string' },
    enrol: { type: 'boolean' },
    expires_in: { type: 'integer', description: 'Seconds the challenge lives.' },
  },
} as const;

export interface SecondStepBody {
  challenge: string;
  code?: string;
  recovery_code?: string;
}

export const secondStepRoute = {
  schema: {
    operationId: 'authLoginTwoFactor',
    summary: 'Sign in: the second step',
    description:
      'Takes the challenge of the password step with a code from the authenticator app or a recovery ' +
      'code, and answers as POST /auth/login does. For a user enrolling during sign-in the code confirms ' +
      'the enrolment and the answer adds the ten `recovery_codes`. Wrong codes count as failed logins: ' +
      'the same limits and lockout (429 with `Retry-After`). A challenge lives 5 minutes, takes 5 wrong ' +
      'codes and signs in once.',
    security: PUBLIC,
    tags: ['auth'],
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['challenge'],
      properties: { challenge, code, recovery_code: recoveryCode },
    },
    response: {
      200: {
        description: 'Signed in, as POST /auth/login answers.',
        ...sessionSchema,
        properties: { ...sessionSchema.properties, recovery_codes: recoveryCodes },
      },
      ...errorResponses(400, 422, 429),
    },
  },
};

const enrolment = {
  type: 'object',
  required: ['secret', 'otpauth_url', 'qr_code'],
  properties: {
    secret: { type: 'string', description: 'The TOTP secret in base32, to type into an app.' },
    otpauth_url: { type: 'string', description: 'The `otpauth://` address the QR code holds.' },
    qr_code: { type: 'string', description: 'The QR code as an SVG data URL.' },
  },
} as const;

export const loginEnrolRoute = {
  schema: {
    operationId: 'authLoginTwoFactorEnrol',
    summary: 'Sign in: set up two-factor that the role requires',
    description:
      'With a challenge whose `enrol` is true: a new secret and its QR code. The first code from the app, ' +
      'sent to POST /auth/login/two-factor, confirms it and signs in.',
    security: PUBLIC,
    tags: ['auth'],
    body: { type: 'object', additionalProperties: false, required: ['challenge'], properties: { challenge } },
    response: { 200: { description: 'The secret to enrol.', ...enrolment }, ...errorResponses(400, 422) },
  },
};

export const stateRoute = {
  schema: {
    operationId: 'twoFactorShow',
    summary: "The signed-in user's two-factor sign-in",
    tags: ['auth'],
    response: {
      200: {
        description: 'Whether it is on, since when, whether the role requires it, recovery codes left.',
        type: 'object',
        required: ['enabled', 'enrolled_at', 'required', 'recovery_codes_left'],
        properties: {
          enabled: { type: 'boolean' },
          enrolled_at: { type: ['string', 'null'], format: 'date-time' },
          required: { type: 'boolean' },
          recovery_codes_left: { type: 'integer' },
        },
      },
      ...errorResponses(401),
    },
  },
};

export const startRoute = {
  schema: {
    operationId: 'twoFactorStart',
    summary: 'Start setting up two-factor sign-in',
    description: 'A new secret and its QR code; nothing changes at sign-in until it is confirmed.',
    tags: ['auth'],
    response: { 200: { description: 'The secret to enrol.', ...enrolment }, ...errorResponses(401, 422) },
  },
};

export const confirmRoute = {
  schema: {
    operationId: 'twoFactorConfirm',
    summary: 'Confirm two-factor sign-in with a first code',
    tags: ['auth'],
    body: { type: 'object', additionalProperties: false, required: ['code'], properties: { code } },
    response: {
      200: {
        description: 'On; the recovery codes, shown once.',
        type: 'object',
        required: ['recovery_codes'],
        properties: { recovery_codes: recoveryCodes },
      },
      ...errorResponses(401, 422, 429),
    },
  },
};

export interface DisableBody {
  code?: string;
  password?: string;
}

export const disableRoute = {
  schema: {
    operationId: 'twoFactorDisable',
    summary: 'Turn two-factor sign-in off',
    description: 'Needs a current code or the password. Refused while the role requires two-factor.',
    tags: ['auth'],
    body: {
      type: 'object',
      additionalProperties: false,
      properties: { code, password: { type: 'string', maxLength: 1024 } },
    },
    response: {
      200: { description: 'Off.', $ref: 'MessageResponse#' },
      ...errorResponses(401, 422, 429),
    },
  },
};
