/** An error whose status and message are safe to show to the caller (4xx). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

/** 422 in the shape the spec's error catalogue renders: {message, errors: {field: [lines]}}. */
export class ValidationError extends HttpError {
  constructor(errors: Record<string, string[]>, message?: string) {
    const first = Object.values(errors)[0]?.[0];
    super(422, message ?? first ?? 'The given data was invalid.', errors);
  }
}

/** 429: the caller must wait `retryAfterMs` (sent as Retry-After, whole seconds). */
export class TooManyRequests extends HttpError {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(429, message);
  }
}

export const notFound = () => new HttpError(404, 'Not found.');
export const forbidden = () => new HttpError(403, 'This action is unauthorized.');
export const unauthenticated = (message = 'Unauthenticated.') => new HttpError(401, message);
