/**
 * A file store that cannot be reached right now (an S3 endpoint down, refusing connections, answering
 * 5xx), as opposed to a file that is not there or a request that is wrong. The error handler answers
 * it with 503 and Retry-After, like an absent database: the request was fine, the store coming back is
 * the cure. The store's own error is kept as the cause for the log.
 */
export class FileStoreUnavailable extends Error {
  constructor(cause: unknown) {
    super('The file store cannot be reached right now.', { cause });
    this.name = 'FileStoreUnavailable';
  }
}

export function isFileStoreUnavailable(error: unknown): error is FileStoreUnavailable {
  return error instanceof FileStoreUnavailable;
}
